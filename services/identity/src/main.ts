/** The identity service on its own (distributed mode). */
import { DistributedEnv, openServiceEngines, runService } from '@docflow/kit';
import { printGeneratedAdminKey } from './admin-key-notice';
import { AdminKeyEnv } from './config';
import { createIdentityService } from './service';

await runService('identity', DistributedEnv.extend(AdminKeyEnv.shape), async (config, log) => {
  const engines = openServiceEngines('identity', config);
  const identity = createIdentityService({
    ...engines,
    log,
    namespace: config.DOCFLOW_NAMESPACE,
    internalToken: config.DOCFLOW_INTERNAL_TOKEN,
    adminKey: config.DOCFLOW_ADMIN_KEY,
  });
  return {
    fetch: identity.app.fetch,
    async start() {
      const bootstrap = await identity.start();
      if (bootstrap.generatedKey) printGeneratedAdminKey(bootstrap.generatedKey);
    },
    async stop() {
      await identity.stop();
      await engines.close();
    },
  };
});
