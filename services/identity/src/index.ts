export type { BootstrapResult } from './bootstrap';
export { createIdentityService, type IdentityService, type IdentityServiceDeps } from './service';
