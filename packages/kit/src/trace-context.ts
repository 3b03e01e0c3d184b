/**
 * W3C trace context (`traceparent`, `tracestate`) carried in headers of HTTP requests and bus messages
 * and in events' metadata. Works with or without a registered tracer provider: the propagator is ours,
 * not the global one.
 */
import { type Context, context, ROOT_CONTEXT, type Span, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

export const TRACEPARENT_HEADER = 'traceparent';

const propagator = new W3CTraceContextPropagator();

type Carrier = Record<string, string>;

const carrierGetter = {
  keys: (carrier: Carrier) => Object.keys(carrier),
  get: (carrier: Carrier, key: string) => carrier[key],
};
const carrierSetter = {
  set: (carrier: Carrier, key: string, value: string) => {
    carrier[key] = value;
  },
};
const headersGetter = {
  keys: (headers: Headers) => [...headers.keys()],
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
};

/**
 * The trace a carrier (bus message headers, `Headers` of a request) names, as the parent of the next
 * span; `base` when it names none or a malformed one.
 */
export function contextFromHeaders(
  headers: Carrier | Headers | undefined,
  base: Context = ROOT_CONTEXT,
): Context {
  if (headers === undefined) return base;
  // A malformed traceparent leaves no span in the context: the base's trace goes on.
  const extracted =
    headers instanceof Headers
      ? propagator.extract(base, headers, headersGetter)
      : propagator.extract(base, headers, carrierGetter);
  return trace.getSpanContext(extracted) ? extracted : base;
}

/** `traceparent` (and `tracestate` when set) of the span in `ctx`; empty when it holds none. */
export function traceHeaders(ctx: Context = context.active()): Carrier {
  const carrier: Carrier = {};
  propagator.inject(ctx, carrier, carrierSetter);
  return carrier;
}

/** The `traceparent` of `span`, to store in an event's metadata. */
export function traceparentOf(span: Span): string | undefined {
  return traceHeaders(trace.setSpan(ROOT_CONTEXT, span))[TRACEPARENT_HEADER];
}

/** The trace a stored `traceparent` names, as the parent of the next span (root when none). */
export function contextFromTraceparent(traceparent: unknown): Context {
  return typeof traceparent === 'string'
    ? contextFromHeaders({ [TRACEPARENT_HEADER]: traceparent })
    : ROOT_CONTEXT;
}

/** Trace and span id of the active span, for log lines; undefined outside any trace. */
export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  const span = trace.getSpanContext(context.active());
  if (!span || !trace.isSpanContextValid(span)) return undefined;
  return { traceId: span.traceId, spanId: span.spanId };
}
