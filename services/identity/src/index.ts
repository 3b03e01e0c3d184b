export { printGeneratedAdminKey } from './admin-key-notice';
export type { BootstrapResult } from './bootstrap';
export { AdminKeyEnv } from './config';
export { createIdentityService, type IdentityService, type IdentityServiceDeps } from './service';
