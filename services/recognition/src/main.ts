/** The recognition service on its own (distributed mode); run several to share the OCR work. */
import { DistributedEnv, MinioEnv, openMinio, traceBlobStore } from '@docflow/kit/engines';
import { httpClient } from '@docflow/kit/http';
import { runDistributedService } from '@docflow/kit/runner';
import { z } from 'zod';
import { RecognitionEnv } from './config';
import { createRecognitionService } from './service';

const Env = DistributedEnv.extend(MinioEnv.shape).extend(RecognitionEnv.shape).extend({
  FILES_URL: z.url(),
  DOCUMENT_URL: z.url(),
});

await runDistributedService('recognition', Env, (config, log, engines) => {
  // A bucket of its own beside the files service's: page layouts and page images are not files, and
  // the files service deletes what its discarded files held.
  const blobs = traceBlobStore(
    openMinio({ ...config, MINIO_BUCKET: `${config.MINIO_BUCKET}-recognition` }),
    'recognition',
  );
  const recognition = createRecognitionService({
    ...engines,
    log,
    namespace: config.DOCFLOW_NAMESPACE,
    internalToken: config.DOCFLOW_INTERNAL_TOKEN,
    files: httpClient(config.FILES_URL),
    document: httpClient(config.DOCUMENT_URL),
    blobs,
    ocrWorkers: config.DOCFLOW_OCR_WORKERS,
  });
  return {
    ...recognition,
    async stop() {
      await recognition.stop();
      await blobs.close();
    },
  };
});
