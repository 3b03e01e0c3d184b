/** The recognition job queue on a real SQLite file: nothing is lost to a killed process, no job blocks the others. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createLogger } from '@docflow/kit';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { createJobQueue } from './job-queue';
import { startJobRunner } from './job-runner';

const log = createLogger('test', 'silent');
const moduleUrl = (name: string) => pathToFileURL(join(import.meta.dirname, name)).href;

async function until(what: string, done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A process that queues one job, takes it, says so and then works on it for ever. */
const TAKE_AND_HANG = `
  const { createJobQueue } = await import(process.env.QUEUE_MODULE);
  const { startJobRunner } = await import(process.env.RUNNER_MODULE);
  const { openLocalDb } = await import('@docflow/kit/eventsourcing');
  const { createLogger } = await import('@docflow/kit');
  const queue = createJobQueue(openLocalDb(process.env.DB_FILE));
  queue.enqueue([{ docId: 'doc-1', fileId: 'file-1', job: '{"big":true}' }]);
  startJobRunner({
    queue,
    concurrency: 1,
    log: createLogger('child', 'silent'),
    abandon: async () => {},
    run: () => {
      process.stdout.write('taken\\n');
      return new Promise(() => {});
    },
  }).wake();
`;

describe('recognition job queue', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-reco-jobs-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('runs a job again after the process that had taken it was killed', { timeout: 60_000 }, async () => {
    const file = join(dir, 'killed.db');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', TAKE_AND_HANG], {
      cwd: import.meta.dirname,
      env: {
        ...process.env,
        DB_FILE: file,
        QUEUE_MODULE: moduleUrl('job-queue.ts'),
        RUNNER_MODULE: moduleUrl('job-runner.ts'),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    const exited = once(child, 'exit');
    await until(
      'the child to take the job',
      () => output.includes('taken') || child.exitCode !== null,
      50_000,
    );
    assert.equal(output, 'taken\n');
    child.kill('SIGKILL');
    await exited;

    const db = openLocalDb(file);
    const queue = createJobQueue(db);
    const ran: string[] = [];
    const runner = startJobRunner({
      queue,
      concurrency: 1,
      log,
      abandon: async () => assert.fail('nothing failed'),
      run: async (job) => {
        ran.push(job);
      },
    });
    await until('the job taken before the kill to run', () => ran.length > 0);
    await runner.stop();
    assert.deepEqual(ran, ['{"big":true}']);
    assert.equal(queue.take(Number.MAX_SAFE_INTEGER), undefined, 'the job is finished and gone');
    db.close();
  });

  it('lets the other runners go on while one job takes long', async () => {
    const db = openLocalDb(join(dir, 'long.db'));
    const queue = createJobQueue(db);
    const release = gate();
    const finished: string[] = [];
    const runner = startJobRunner({
      queue,
      concurrency: 2,
      log,
      abandon: async () => assert.fail('nothing failed'),
      run: async (job) => {
        if (job === 'large') await release.opened;
        finished.push(job);
      },
    });
    queue.enqueue([{ docId: 'doc-1', fileId: 'f', job: 'large' }]);
    runner.wake();
    queue.enqueue(['a', 'b', 'c'].map((job) => ({ docId: `doc-${job}`, fileId: 'f', job })));
    runner.wake();
    await until('the small jobs', () => finished.length === 3);
    assert.deepEqual(finished, ['a', 'b', 'c']);
    release.open();
    await until('the large job', () => finished.length === 4);
    await runner.stop();
    db.close();
  });

  it('runs the files of one document one after the other, in order', async () => {
    const db = openLocalDb(join(dir, 'one-doc.db'));
    const queue = createJobQueue(db);
    const release = gate();
    const started: string[] = [];
    const runner = startJobRunner({
      queue,
      concurrency: 3,
      log,
      abandon: async () => assert.fail('nothing failed'),
      run: async (job) => {
        started.push(job);
        if (job === 'first') await release.opened;
      },
    });
    queue.enqueue([
      { docId: 'doc-1', fileId: 'f1', job: 'first' },
      { docId: 'doc-1', fileId: 'f2', job: 'second' },
      { docId: 'doc-2', fileId: 'f1', job: 'other' },
    ]);
    runner.wake();
    await until('the other document', () => started.includes('other'));
    assert.deepEqual(started, ['first', 'other']);
    release.open();
    await until('the second file', () => started.length === 3);
    assert.deepEqual(started, ['first', 'other', 'second']);
    await runner.stop();
    db.close();
  });

  it('queues a failed job again with back-off, then abandons it, once', async () => {
    const db = openLocalDb(join(dir, 'failing.db'));
    const queue = createJobQueue(db);
    let runs = 0;
    const abandoned: [string, number][] = [];
    const runner = startJobRunner({
      queue,
      concurrency: 1,
      log,
      retry: { attempts: 3, initialMs: 5, maxMs: 5 },
      abandon: async (job, attempts) => {
        abandoned.push([job, attempts]);
      },
      run: async () => {
        runs++;
        throw new Error('the files service answered 503');
      },
    });
    queue.enqueue([{ docId: 'doc-1', fileId: 'f', job: 'unreadable' }]);
    runner.wake();
    await until('the job to be abandoned', () => abandoned.length > 0);
    await runner.stop();
    assert.equal(runs, 3);
    assert.deepEqual(abandoned, [['unreadable', 3]]);
    assert.equal(queue.nextDue(), undefined, 'nothing left queued');
    db.close();
  });
});
