export { WebhooksEnv } from './config';
export { createWebhooksService, type WebhooksService, type WebhooksServiceDeps } from './service';
