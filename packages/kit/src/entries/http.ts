/**
 * The HTTP skeleton: the service app, problem+json errors, principals, health, metrics and tracing of
 * requests, service-to-service calls.
 */
export * from '../health';
export * from '../http-metrics';
export * from '../http-tracing';
export * from '../internal-client';
export * from '../internal-handler';
export * from '../metrics';
export * from '../principal';
export * from '../problem';
export * from '../request-context';
export * from '../serve';
export * from '../service-app';
export * from '../service-client';
export * from '../shutdown-signal';
export * from '../streams';
export * from '../validation';
