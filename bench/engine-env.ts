/** The engines' settings as infra/local/up.sh wrote them to `.infra/env`, unless the environment has them. */
import { existsSync, readFileSync } from 'node:fs';

const ENV_FILE = new URL('../.infra/env', import.meta.url).pathname;

export function loadEngineEnv(): void {
  if (!existsSync(ENV_FILE)) return;
  for (const line of readFileSync(ENV_FILE, 'utf8').split('\n')) {
    const match = line.match(/^([A-Z_]+)=(.*)$/);
    if (match && process.env[match[1]!] === undefined) process.env[match[1]!] = match[2]!;
  }
}
