/** The files service on its own (distributed mode). */
import { envFields } from '@docflow/kit';
import { DistributedEnv, MinioEnv, openMinio, traceBlobStore } from '@docflow/kit/engines';
import { httpClient } from '@docflow/kit/http';
import { runDistributedService } from '@docflow/kit/runner';
import { z } from 'zod';
import { FilesEnv } from './config';
import { createFilesService } from './service';

const FilesServiceEnv = DistributedEnv.extend(MinioEnv.shape)
  .extend(FilesEnv.shape)
  .extend({ FILES_INSTANCE_ID: envFields.instanceId, DOCUMENT_URL: z.url() });

await runDistributedService('files', FilesServiceEnv, (config, log, engines) => {
  const blobs = traceBlobStore(openMinio(config), 'files');
  const files = createFilesService({
    ...engines,
    blobs,
    log,
    namespace: config.DOCFLOW_NAMESPACE,
    instanceId: config.FILES_INSTANCE_ID,
    internalToken: config.DOCFLOW_INTERNAL_TOKEN,
    maxUploadBytes: config.DOCFLOW_MAX_UPLOAD_BYTES,
    uploadGraceSeconds: config.DOCFLOW_UPLOAD_GRACE_SECONDS,
    orphanSweepSeconds: config.DOCFLOW_ORPHAN_SWEEP_SECONDS,
    document: httpClient(config.DOCUMENT_URL),
  });
  return {
    ...files,
    async stop() {
      await files.stop();
      await blobs.close();
    },
  };
});
