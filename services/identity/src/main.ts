/** The identity service on its own (distributed mode). */
import { DistributedEnv } from '@docflow/kit/engines';
import { runDistributedService } from '@docflow/kit/runner';
import { printGeneratedAdminKey } from './admin-key-notice';
import { AdminKeyEnv } from './config';
import { createIdentityService } from './service';

await runDistributedService('identity', DistributedEnv.extend(AdminKeyEnv.shape), (config, log, engines) => {
  const identity = createIdentityService({
    ...engines,
    log,
    namespace: config.DOCFLOW_NAMESPACE,
    internalToken: config.DOCFLOW_INTERNAL_TOKEN,
    adminKey: config.DOCFLOW_ADMIN_KEY,
  });
  return {
    ...identity,
    async start() {
      const bootstrap = await identity.start();
      if (bootstrap.generatedKey) printGeneratedAdminKey(bootstrap.generatedKey);
    },
  };
});
