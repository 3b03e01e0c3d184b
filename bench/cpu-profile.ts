/**
 * Preloaded (`--import`) into a benchmarked process by `profileEnv`: records a V8 CPU profile from
 * start to exit and writes it to $BENCH_CPU_PROFILE_DIR (Node 20 refuses --cpu-prof in NODE_OPTIONS).
 * SIGUSR2 (`restartProfile(pid)`) drops what was recorded so far and starts again: the profile then
 * leaves out start-up and warm-up.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.BENCH_CPU_PROFILE_DIR;
/** The service a docflow process runs (`services/<name>/src/main.ts`), so that each is summed apart. */
const processName = /services\/([^/]+)\/src\/main\.ts$/.exec(process.argv[1] ?? '')?.[1] ?? 'process';
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  process.on('SIGUSR2', () => {
    session.post('Profiler.stop', () => session.post('Profiler.start'));
  });
  // The in-thread inspector session answers synchronously, so this completes inside the exit handler.
  process.once('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error)
        writeFileSync(join(dir, `${processName}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
