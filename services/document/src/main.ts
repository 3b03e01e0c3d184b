/** The document service on its own (distributed mode). */
import { envFields } from '@docflow/kit';
import { DistributedEnv } from '@docflow/kit/engines';
import { httpClient } from '@docflow/kit/http';
import { runDistributedService } from '@docflow/kit/runner';
import { z } from 'zod';
import { DocumentEnv } from './config';
import { createDocumentService } from './service';

const DocumentServiceEnv = DistributedEnv.extend(DocumentEnv.shape).extend({
  IDENTITY_URL: z.url(),
  FILES_URL: z.url(),
  WORKFLOW_URL: z.url(),
  RECOGNITION_URL: z.url(),
  DOCUMENT_INSTANCE_ID: envFields.instanceId,
});

await runDistributedService('document', DocumentServiceEnv, (config, log, engines) =>
  createDocumentService({
    ...engines,
    log,
    namespace: config.DOCFLOW_NAMESPACE,
    internalToken: config.DOCFLOW_INTERNAL_TOKEN,
    identity: httpClient(config.IDENTITY_URL),
    files: httpClient(config.FILES_URL),
    workflow: httpClient(config.WORKFLOW_URL),
    recognition: httpClient(config.RECOGNITION_URL),
    maxCreateBytes: config.DOCFLOW_MAX_CREATE_BYTES,
    checkpointIntervalMs: config.DOCFLOW_AUDIT_CHECKPOINT_MS,
    searchCommonDocs: config.DOCFLOW_SEARCH_COMMON_DOCS,
    instanceId: config.DOCUMENT_INSTANCE_ID,
  }),
);
