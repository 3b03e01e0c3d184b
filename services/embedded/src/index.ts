export { EmbeddedConfig } from './config';
export { type EmbeddedSystem, startEmbeddedSystem } from './system';
