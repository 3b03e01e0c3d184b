/** W3C trace context in and out of headers and events, with tracing off (no exporter). */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import {
  activeTraceIds,
  contextFromHeaders,
  contextFromTraceparent,
  traceHeaders,
  traceparentOf,
} from './trace-context';
import { inSpan, startTracing } from './tracing';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const SPAN_ID = 'b7ad6b7169203331';
const TRACEPARENT = `00-${TRACE_ID}-${SPAN_ID}-01`;

// What every process does at start; no OTEL_EXPORTER_OTLP_ENDPOINT: nothing is recorded.
const tracing = startTracing('unit', {});
after(() => tracing.shutdown());

describe('trace context', () => {
  it('reads a traceparent from message headers and from request Headers', () => {
    for (const headers of [{ traceparent: TRACEPARENT }, new Headers({ traceparent: TRACEPARENT })]) {
      const span = trace.getSpanContext(contextFromHeaders(headers));
      assert.deepEqual(
        { traceId: span?.traceId, spanId: span?.spanId, flags: span?.traceFlags, remote: span?.isRemote },
        { traceId: TRACE_ID, spanId: SPAN_ID, flags: 1, remote: true },
      );
    }
  });

  it('keeps the base context when the traceparent is missing or malformed', () => {
    const base = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: 'f'.repeat(32),
      spanId: 'e'.repeat(16),
      traceFlags: 0,
    });
    const cases: Array<Record<string, string> | undefined> = [
      undefined,
      {},
      { traceparent: 'garbage' },
      { traceparent: `00-${'0'.repeat(32)}-${SPAN_ID}-01` },
      { traceparent: `00-${TRACE_ID}-${SPAN_ID}` },
    ];
    for (const headers of cases)
      assert.equal(contextFromHeaders(headers, base), base, JSON.stringify(headers));
    assert.equal(trace.getSpanContext(contextFromTraceparent(undefined)), undefined);
  });

  it('writes the traceparent and tracestate of a context back out', () => {
    const ctx = contextFromHeaders({ traceparent: TRACEPARENT, tracestate: 'vendor=abc' });
    assert.deepEqual(traceHeaders(ctx), { traceparent: TRACEPARENT, tracestate: 'vendor=abc' });
    assert.deepEqual(traceHeaders(ROOT_CONTEXT), {});
  });

  it('with tracing off, a span continues the incoming trace under a new span id, and logs name it', async () => {
    const parent = contextFromTraceparent(TRACEPARENT);
    const seen = await inSpan('work', { parent }, async (span) => ({
      stored: traceparentOf(span),
      logged: activeTraceIds(),
      recording: span.isRecording(),
    }));
    const [, traceId, spanId, flags] = seen.stored?.split('-') ?? [];
    assert.equal(traceId, TRACE_ID);
    assert.match(spanId ?? '', /^[0-9a-f]{16}$/);
    assert.notEqual(spanId, SPAN_ID);
    assert.equal(flags, '00', 'not sampled: nothing is exported');
    assert.equal(seen.recording, false);
    assert.deepEqual(seen.logged, { traceId: TRACE_ID, spanId });
    assert.equal(activeTraceIds(), undefined, 'outside the span no trace is active');
  });

  it('with tracing off, work outside any trace starts its own', async () => {
    const [first, second] = await Promise.all([
      inSpan('a', {}, async (span) => traceparentOf(span)),
      inSpan('b', {}, async (span) => traceparentOf(span)),
    ]);
    assert.match(first ?? '', /^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    assert.notEqual(first?.split('-')[1], second?.split('-')[1]);
  });
});
