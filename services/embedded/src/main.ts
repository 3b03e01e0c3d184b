/** `pnpm start`: the whole of docflow in one process, no servers needed. */
import { printGeneratedAdminKey } from '@docflow/identity';
import { runService } from '@docflow/kit/runner';
import { EmbeddedConfig } from './config';
import { startEmbeddedSystem } from './system';

await runService('docflow', EmbeddedConfig, async (config, log) => {
  const system = await startEmbeddedSystem(config, log);
  if (system.generatedAdminKey) printGeneratedAdminKey(system.generatedAdminKey);
  return system;
});
