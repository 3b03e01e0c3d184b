/** The identity service on its own (distributed mode). */
import { DistributedEnv, openEventStore, openKafkaBus, openServiceDb, runService } from '@docflow/kit';
import { printGeneratedAdminKey } from './admin-key-notice';
import { AdminKeyEnv } from './config';
import { createIdentityService } from './service';

await runService('identity', DistributedEnv.extend(AdminKeyEnv.shape), async (config, log) => {
  const store = openEventStore('identity', config);
  const bus = openKafkaBus('identity', config);
  const db = openServiceDb('identity', config);
  const identity = createIdentityService({
    store,
    bus,
    db,
    log,
    namespace: config.DOCFLOW_NAMESPACE,
    internalToken: config.DOCFLOW_INTERNAL_TOKEN,
    adminKey: config.DOCFLOW_ADMIN_KEY,
  });
  const bootstrap = await identity.start();
  if (bootstrap.generatedKey) printGeneratedAdminKey(bootstrap.generatedKey);
  return {
    fetch: identity.app.fetch,
    async stop() {
      await identity.stop();
      await bus.close();
      await store.close();
      db.close();
    },
  };
});
