/** The gateway on its own (distributed mode): services reached over HTTP, accounts learnt from Kafka. */
import { envFields } from '@docflow/kit';
import { claimServiceDir, DistributedEnv, openKafkaBus, openServiceDb } from '@docflow/kit/engines';
import { httpClient, serviceReadiness } from '@docflow/kit/http';
import { runService } from '@docflow/kit/runner';
import { z } from 'zod';
import { EdgeEnv, edgeOptions } from './config';
import { createGatewayService } from './service';

const GatewayEnv = DistributedEnv.extend(EdgeEnv.shape).extend({
  IDENTITY_URL: z.url(),
  DOCUMENT_URL: z.url(),
  WEBHOOKS_URL: z.url(),
  /** The recognition service: its correction memory's admin routes. */
  RECOGNITION_URL: z.url(),
  /** Each instance keeps its own read model: a stable name per instance keeps it across restarts. */
  GATEWAY_INSTANCE_ID: envFields.instanceId,
});

await runService('gateway', GatewayEnv, async (config, log) => {
  const instance = `gateway-${config.GATEWAY_INSTANCE_ID}`;
  const lock = claimServiceDir(instance, config);
  const bus = openKafkaBus(instance, config);
  const db = openServiceDb(instance, config);
  const identity = httpClient(config.IDENTITY_URL);
  const document = httpClient(config.DOCUMENT_URL);
  const webhooks = httpClient(config.WEBHOOKS_URL);
  const recognition = httpClient(config.RECOGNITION_URL);
  const gateway = createGatewayService({
    services: { identity, document, webhooks, recognition },
    bus,
    db,
    log,
    namespace: config.DOCFLOW_NAMESPACE,
    internalToken: config.DOCFLOW_INTERNAL_TOKEN,
    instanceId: config.GATEWAY_INSTANCE_ID,
    // Not the webhooks service: the API serves without it (its admin routes answer 503 meanwhile).
    readiness: { identity: serviceReadiness(identity), document: serviceReadiness(document) },
    edge: edgeOptions(config),
    metricsToken: config.DOCFLOW_METRICS_TOKEN,
  });
  return {
    fetch: gateway.app.fetch,
    start: () => gateway.start(),
    async stop() {
      await gateway.stop();
      await bus.close();
      db.close();
      lock.release();
    },
  };
});
