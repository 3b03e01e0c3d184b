export { EdgeEnv, edgeOptions } from './config';
export { createGatewayService, type GatewayService, type GatewayServiceDeps } from './service';
