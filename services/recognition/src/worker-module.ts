/** Worker threads whose module is TypeScript, in a process run through tsx. */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on `module`. A `.ts` module is imported through tsx's API: a worker does not
 * inherit the loader that tsx registered in the main thread (Node 20), so `new Worker(url)` alone fails
 * with ERR_UNKNOWN_FILE_EXTENSION.
 */
export function startWorkerModule(module: URL, options: WorkerOptions = {}): Worker {
  if (!module.pathname.endsWith('.ts')) return new Worker(module, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const href = JSON.stringify(module.href);
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${href}, ${href}))`;
  return new Worker(bootstrap, { ...options, eval: true });
}
