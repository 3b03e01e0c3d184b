/** The data directory lock on a real file system, with a second process holding it and dying. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DataDirInUse, lockDataDir, lockDataDirs } from './data-dir-lock';

const LOCK_MODULE = new URL('./data-dir-lock.ts', import.meta.url).pathname;

/** A node process that locks `dir`, says so, and waits to be killed. */
async function holderProcess(dir: string) {
  const script = `import { lockDataDir } from ${JSON.stringify(LOCK_MODULE)};
lockDataDir(${JSON.stringify(dir)});
console.log('locked');
setInterval(() => {}, 60_000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  assert.equal(line.toString().trim(), 'locked');
  return child;
}

function refusal(dir: string): DataDirInUse {
  try {
    lockDataDir(dir).release();
  } catch (err) {
    assert.ok(err instanceof DataDirInUse, String(err));
    return err;
  }
  assert.fail(`${dir} was not refused`);
}

describe('data directory lock', () => {
  const root = mkdtempSync(join(tmpdir(), 'docflow-lock-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('refuses a second holder, naming the directory and the holding pid, until released', () => {
    const dir = join(root, 'document');
    const lock = lockDataDir(dir);
    const refused = refusal(dir);
    assert.equal(refused.holder?.pid, process.pid);
    assert.ok(refused.message.includes(dir), refused.message);
    assert.ok(refused.message.includes(`process ${process.pid}`), refused.message);
    lock.release();
    lockDataDir(dir).release();
  });

  it('refuses while another process holds it; lets in at once after that process is SIGKILLed', async () => {
    const dir = join(root, 'workflow');
    const holder = await holderProcess(dir);
    try {
      assert.equal(refusal(dir).holder?.pid, holder.pid);
    } finally {
      holder.kill('SIGKILL');
      await once(holder, 'exit');
    }
    // No wait for the lock to grow stale: the kernel dropped it with the process.
    lockDataDir(dir).release();
  });

  it('lockDataDirs takes all or none', () => {
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    const held = lockDataDir(b);
    assert.throws(() => lockDataDirs([a, b]), DataDirInUse);
    // a was let go when b was refused.
    lockDataDir(a).release();
    held.release();
    lockDataDirs([a, b]).release();
  });
});
