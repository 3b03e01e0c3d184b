/** `pnpm start`: the whole of docflow in one process, no servers needed. */
import { ConfigError, createLogger, loadConfig, onShutdownSignal } from '@docflow/kit';
import { EmbeddedConfig } from './config';
import { startEmbeddedSystem } from './system';

function printGeneratedKey(key: string): void {
  // The one secret ever printed: on the console, never in the log stream.
  process.stdout.write(
    [
      '',
      '================================================================',
      ' docflow: first start without DOCFLOW_ADMIN_KEY.',
      ' The bootstrap service account "admin" (every role) has this key.',
      ' It is shown only now; only its hash is kept:',
      '',
      `   ${key}`,
      '',
      ' Use it as:  Authorization: Bearer <key>',
      '================================================================',
      '',
    ].join('\n'),
  );
}

async function main(): Promise<void> {
  let config: EmbeddedConfig;
  try {
    config = loadConfig(EmbeddedConfig);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger('docflow', config.LOG_LEVEL);
  const system = await startEmbeddedSystem(config, log);
  if (system.generatedAdminKey) printGeneratedKey(system.generatedAdminKey);
  log.info(
    { port: system.server.port, dataDir: config.DOCFLOW_DATA_DIR, mode: 'embedded' },
    'docflow listening',
  );
  onShutdownSignal(
    () => system.stop(),
    (msg) => log.info(msg),
  );
}

main().catch((err: unknown) => {
  console.error('docflow failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
