/** Configuration of the embedded runner (every variable validated at start-up). */
import { DocumentEnv } from '@docflow/document';
import { FilesEnv } from '@docflow/files';
import { EdgeEnv } from '@docflow/gateway';
import { AdminKeyEnv } from '@docflow/identity';
import { envFields } from '@docflow/kit';
import { MetricsEnv } from '@docflow/kit/engines';
import { RecognitionEnv } from '@docflow/recognition';
import { WebhooksEnv } from '@docflow/webhooks';
import { NotifyEnv, SchedulerEnv } from '@docflow/workflow';
import { z } from 'zod';

export const EmbeddedConfig = AdminKeyEnv.extend(FilesEnv.shape)
  .extend(RecognitionEnv.shape)
  .extend(DocumentEnv.shape)
  .extend(EdgeEnv.shape)
  .extend(MetricsEnv.shape)
  .extend(WebhooksEnv.shape)
  .extend(SchedulerEnv.shape)
  .extend(NotifyEnv.shape)
  .extend({
    DOCFLOW_MODE: z
      .literal('embedded', {
        message: 'this runner is the embedded mode; distributed services have their own mains',
      })
      .default('embedded'),
    PORT: envFields.port.default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    DOCFLOW_DATA_DIR: z.string().min(1).default('./data'),
    LOG_LEVEL: envFields.logLevel.default('info'),
  });
export type EmbeddedConfig = z.infer<typeof EmbeddedConfig>;
