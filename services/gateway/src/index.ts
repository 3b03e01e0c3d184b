export { createGatewayService, type GatewayService, type GatewayServiceDeps } from './service';
