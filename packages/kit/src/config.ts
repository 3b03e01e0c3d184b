/** Configuration from environment variables, validated by zod at start-up. */
import { hostname } from 'node:os';
import { z } from 'zod';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Parses `env` with `schema`; on failure throws a ConfigError naming every bad variable.
 * @example const config = loadConfig(z.object({ PORT: port.default(8080) }));
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(environment)'}: ${i.message}`);
  throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
}

/** Common field schemas for env values (which always arrive as strings). */
export const envFields = {
  port: z.coerce.number().int().min(0).max(65535),
  positiveInt: z.coerce.number().int().min(1),
  url: z.url(),
  csv: z.string().transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  ),
  bool: z.enum(['true', 'false', '1', '0']).transform((s) => s === 'true' || s === '1'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  /**
   * The stable name of one instance of a service that keeps a whole read model fed by its own consumer
   * group (default: the host name, so set it when two instances run on one host).
   */
  instanceId: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .default(
      hostname()
        .replace(/[^A-Za-z0-9_.-]/g, '-')
        .slice(0, 64),
    ),
};
