/** The workflow service on its own (distributed mode). */
import { DistributedEnv, httpClient, openServiceEngines, runService } from '@docflow/kit';
import { z } from 'zod';
import { createWorkflowService } from './service';

const WorkflowEnv = DistributedEnv.extend({ IDENTITY_URL: z.url() });

await runService('workflow', WorkflowEnv, async (config, log) => {
  const engines = openServiceEngines('workflow', config);
  const workflow = createWorkflowService({
    ...engines,
    log,
    namespace: config.DOCFLOW_NAMESPACE,
    internalToken: config.DOCFLOW_INTERNAL_TOKEN,
    identity: httpClient(config.IDENTITY_URL),
  });
  return {
    fetch: workflow.app.fetch,
    start: () => workflow.start(),
    async stop() {
      await workflow.stop();
      await engines.close();
    },
  };
});
