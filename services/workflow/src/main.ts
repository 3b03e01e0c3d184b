/** The workflow service on its own (distributed mode). */
import { DistributedEnv } from '@docflow/kit/engines';
import { httpClient } from '@docflow/kit/http';
import { runDistributedService } from '@docflow/kit/runner';
import { z } from 'zod';
import { NotifyEnv, notifySettings } from './notify/config';
import { SchedulerEnv, schedulerSettings } from './scheduler/config';
import { createWorkflowService } from './service';

const WorkflowEnv = DistributedEnv.extend({ IDENTITY_URL: z.url(), DOCUMENT_URL: z.url() })
  .extend(SchedulerEnv.shape)
  .extend(NotifyEnv.shape);

await runDistributedService('workflow', WorkflowEnv, (config, log, engines) =>
  createWorkflowService({
    ...engines,
    log,
    namespace: config.DOCFLOW_NAMESPACE,
    internalToken: config.DOCFLOW_INTERNAL_TOKEN,
    identity: httpClient(config.IDENTITY_URL),
    document: httpClient(config.DOCUMENT_URL),
    ...schedulerSettings(config),
    ...notifySettings(config),
  }),
);
