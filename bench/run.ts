/**
 * `pnpm bench`: every benchmark in turn, each in its own process group with a time limit (the group,
 * docflow processes included, is killed when one overruns), so the whole run stops by itself within
 * the sum of the limits (58 minutes). Each benchmark writes its own section of bench/RESULTS.md.
 */
import { spawn } from 'node:child_process';

interface Step {
  name: string;
  command: string[];
  limitS: number;
}

const tsx = (file: string): string[] => [process.execPath, '--import', 'tsx', file];
const STEPS: Step[] = [
  { name: 'get-document', command: tsx('bench/get-document.ts'), limitS: 420 },
  { name: 'eventstore', command: tsx('bench/eventstore.ts'), limitS: 120 },
  { name: 'eventstore-postgres', command: tsx('bench/eventstore-postgres.ts'), limitS: 120 },
  { name: 'create-document', command: tsx('bench/create-document.ts'), limitS: 210 },
  { name: 'views', command: tsx('bench/views.ts'), limitS: 600 },
  { name: 'bus-lag', command: tsx('bench/bus-lag.ts'), limitS: 150 },
  { name: 'task-completion', command: tsx('bench/task-completion.ts'), limitS: 300 },
  { name: 'scale-document', command: tsx('bench/scale-document.ts'), limitS: 240 },
  { name: 'ocr', command: ['pnpm', 'bench:ocr'], limitS: 300 },
  // After `ocr`, which installs native tesseract: the accuracy section compares against its text.
  { name: 'idp', command: tsx('bench/idp.ts'), limitS: 600 },
  { name: 'hostile-files', command: tsx('bench/hostile-files.ts'), limitS: 420 },
];

const ROOT = new URL('..', import.meta.url).pathname;

function run(step: Step): Promise<string> {
  return new Promise((resolve) => {
    const [command, ...args] = step.command;
    const child = spawn(command!, args, { cwd: ROOT, stdio: 'inherit', detached: true });
    const timer = setTimeout(() => {
      console.error(`bench ${step.name}: over ${step.limitS} s, killing its process group`);
      process.kill(-child.pid!, 'SIGKILL');
    }, step.limitS * 1000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`);
    });
  });
}

const started = performance.now();
const outcomes: string[] = [];
for (const step of STEPS) {
  console.log(`\n=== bench ${step.name} (limit ${step.limitS} s)`);
  const stepStarted = performance.now();
  const outcome = await run(step);
  outcomes.push(`${step.name}: ${outcome} in ${((performance.now() - stepStarted) / 1000).toFixed(0)} s`);
}
console.log(
  `\n${outcomes.join('\n')}\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s; figures in bench/RESULTS.md`,
);
process.exitCode = outcomes.every((o) => o.includes(': ok ')) ? 0 : 1;
