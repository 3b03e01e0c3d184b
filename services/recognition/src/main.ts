/** The recognition service on its own (distributed mode); run several to share the OCR work. */
import { DistributedEnv } from '@docflow/kit/engines';
import { httpClient } from '@docflow/kit/http';
import { runDistributedService } from '@docflow/kit/runner';
import { z } from 'zod';
import { RecognitionEnv } from './config';
import { createRecognitionService } from './service';

const Env = DistributedEnv.extend(RecognitionEnv.shape).extend({
  FILES_URL: z.url(),
  DOCUMENT_URL: z.url(),
});

await runDistributedService('recognition', Env, (config, log, engines) =>
  createRecognitionService({
    ...engines,
    log,
    namespace: config.DOCFLOW_NAMESPACE,
    internalToken: config.DOCFLOW_INTERNAL_TOKEN,
    files: httpClient(config.FILES_URL),
    document: httpClient(config.DOCUMENT_URL),
    ocrWorkers: config.DOCFLOW_OCR_WORKERS,
  }),
);
