/**
 * Progress of a long task on stderr: a bar when stderr is a terminal, otherwise a line per step at most
 * once a second and one when it ends (a log or a CI job gets a readable trace, not a redrawn bar).
 */
import { SingleBar } from 'cli-progress';

const LINE_INTERVAL_MS = 1000;

export interface Progress {
  /** A new step: `label` (a file, "blobs"), how many `unit`s it has. */
  start(label: string, total: number, unit: string): void;
  update(done: number): void;
  /** The step is over. */
  stop(): void;
}

/**
 * @example const progress = progressOn('backup'); progress.start('identity/events.db', 120, 'pages');
 */
export function progressOn(task: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  return stream.isTTY ? barProgress(task, stream) : lineProgress(task, stream);
}

function barProgress(task: string, stream: NodeJS.WriteStream): Progress {
  let bar: SingleBar | undefined;
  return {
    start(label, total, unit) {
      bar = new SingleBar({
        stream,
        format: `${task} ${label} [{bar}] {value}/{total} ${unit} · {eta_formatted} left`,
        hideCursor: true,
      });
      bar.start(Math.max(total, 1), 0);
    },
    update: (done) => bar?.update(done),
    stop: () => bar?.stop(),
  };
}

function lineProgress(task: string, stream: NodeJS.WriteStream): Progress {
  let step = { label: '', total: 0, unit: '', done: 0, started: 0, shown: 0 };
  const show = () => {
    const seconds = (performance.now() - step.started) / 1000;
    stream.write(
      `${task}: ${step.label} ${step.done}/${step.total} ${step.unit} (${seconds.toFixed(1)} s)\n`,
    );
    step.shown = performance.now();
  };
  return {
    start(label, total, unit) {
      step = { label, total, unit, done: 0, started: performance.now(), shown: performance.now() };
    },
    update(done) {
      step.done = done;
      if (performance.now() - step.shown >= LINE_INTERVAL_MS) show();
    },
    stop: show,
  };
}
