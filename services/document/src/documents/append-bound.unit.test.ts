import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_APPEND_BYTES } from '@docflow/eventstore';
import { ProblemError } from '@docflow/kit/http';
import { METADATA_ALLOWANCE, requireAppendable } from './append-bound';

/** An event whose data JSON (`{"text":"…"}`) and type come to `bytes` with its id and metadata allowance. */
const eventOf = (bytes: number) => ({
  type: 'T',
  data: { text: 'x'.repeat(bytes - 36 - 1 - METADATA_ALLOWANCE - '{"text":""}'.length) },
});

describe('the append bound, checked before anything is done for the events', () => {
  it('accepts events that fit MAX_APPEND_BYTES with their metadata allowance', () => {
    assert.doesNotThrow(() => requireAppendable([eventOf(MAX_APPEND_BYTES)]));
    assert.doesNotThrow(() => requireAppendable([]));
  });

  it('refuses with 413, as the store would, one byte more, or the sum of several events', () => {
    const tooLarge = (err: unknown) =>
      err instanceof ProblemError && err.status === 413 && /exceeds 1048576 bytes/.test(err.detail ?? '');
    assert.throws(() => requireAppendable([eventOf(MAX_APPEND_BYTES + 1)]), tooLarge);
    const half = eventOf(MAX_APPEND_BYTES / 2 + 1);
    assert.throws(() => requireAppendable([half, half]), tooLarge);
  });

  it('counts UTF-8 bytes, not characters', () => {
    const chars = (MAX_APPEND_BYTES - 36 - 1 - METADATA_ALLOWANCE - '{"text":""}'.length) / 2;
    assert.doesNotThrow(() =>
      requireAppendable([{ type: 'T', data: { text: 'é'.repeat(Math.floor(chars)) } }]),
    );
    assert.throws(() =>
      requireAppendable([{ type: 'T', data: { text: 'é'.repeat(Math.floor(chars) + 1) } }]),
    );
  });
});
