/** The recognition service on its own (distributed mode); run several to share the OCR work. */
import { DistributedEnv, httpClient, openServiceEngines, runService } from '@docflow/kit';
import { z } from 'zod';
import { RecognitionEnv } from './config';
import { createRecognitionService } from './service';

const Env = DistributedEnv.extend(RecognitionEnv.shape).extend({ FILES_URL: z.url() });

await runService('recognition', Env, async (config, log) => {
  const engines = openServiceEngines('recognition', config);
  const recognition = createRecognitionService({
    ...engines,
    log,
    namespace: config.DOCFLOW_NAMESPACE,
    internalToken: config.DOCFLOW_INTERNAL_TOKEN,
    files: httpClient(config.FILES_URL),
    ocrWorkers: config.DOCFLOW_OCR_WORKERS,
  });
  return {
    fetch: recognition.app.fetch,
    start: () => recognition.start(),
    async stop() {
      await recognition.stop();
      await engines.close();
    },
  };
});
