/** Closing the server: a request in flight is answered; past the drain bound its connection is closed. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startServer } from './serve';

/** A server whose every request waits until the test lets it answer; `arrived` once one is in. */
async function heldServer() {
  let release: () => void = () => {};
  let arrived: () => void = () => {};
  const inFlight = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server = await startServer(
    async () => {
      arrived();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return new Response('answered');
    },
    0,
    '127.0.0.1',
  );
  return { server, inFlight, release: () => release() };
}

describe('startServer close', { timeout: 30_000 }, () => {
  it('waits for the request in flight: it is answered, nothing is cut', async () => {
    const { server, inFlight, release } = await heldServer();
    const answer = fetch(`http://127.0.0.1:${server.port}/`, { method: 'POST', body: 'write' });
    await inFlight;
    const closed = server.close(60_000);
    release();
    const res = await answer;
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'answered');
    assert.equal(await closed, 0);
  });

  it('past the drain bound the busy connection is closed and counted', async () => {
    const { server, inFlight, release } = await heldServer();
    const answer = fetch(`http://127.0.0.1:${server.port}/`, { method: 'POST', body: 'write' }).then(
      () => 'answered',
      () => 'cut',
    );
    await inFlight;
    assert.equal(await server.close(50), 1);
    assert.equal(await answer, 'cut');
    release();
  });
});
