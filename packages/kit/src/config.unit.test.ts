import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { ConfigError, envFields, loadConfig } from './config';

const Schema = z.object({
  PORT: envFields.port.default(8080),
  KAFKA_BROKERS: envFields.csv,
  DEBUG: envFields.bool.optional(),
});

describe('loadConfig', () => {
  it('parses and applies defaults', () => {
    assert.deepEqual(loadConfig(Schema, { KAFKA_BROKERS: 'a:1, b:2' }), {
      PORT: 8080,
      KAFKA_BROKERS: ['a:1', 'b:2'],
    });
  });
  it('names every bad variable in one message', () => {
    assert.throws(
      () => loadConfig(Schema, { PORT: 'eighty', DEBUG: 'maybe' }),
      (err: unknown) =>
        err instanceof ConfigError &&
        /PORT/.test(err.message) &&
        /KAFKA_BROKERS/.test(err.message) &&
        /DEBUG/.test(err.message),
    );
  });
  it('rejects a port out of range', () => {
    assert.throws(() => loadConfig(Schema, { PORT: '70000', KAFKA_BROKERS: 'x' }), /PORT/);
  });
});
