import { fileURLToPath } from 'node:url';

/**
 * The repository this command belongs to: two levels above the folder of the running module, which is
 * `packages/cli/src` (run by tsx) or `packages/cli/.dist` (the compiled bundle), alike.
 */
export const CHECKOUT = fileURLToPath(new URL('../../../', import.meta.url));
