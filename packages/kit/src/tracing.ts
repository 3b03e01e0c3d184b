/**
 * OpenTelemetry traces: one tracer provider per process, and `inSpan` for the wrappers at the
 * composition points (HTTP, service calls, event store, bus, blob store, OCR pages).
 *
 * Exported over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
 * is set. Unset, no span is recorded (sampler always off), but every span still gets its ids: the trace
 * id of an incoming `traceparent` (or a new one) is still logged, passed on and stored in events.
 */
import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  type Span,
  type SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
} from '@opentelemetry/api';
import { isTracingSuppressed } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  RandomIdGenerator,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { telemetryOn } from './telemetry';

/** In embedded mode one process holds every service: this attribute says which one made the span. */
export const SERVICE_ATTRIBUTE = 'docflow.service';

const tracer = trace.getTracer('docflow');

/**
 * Set when the process's provider records nothing (no exporter): spans are then made here as the
 * SDK makes them under its always-off sampler (new ids, the parent's trace, not sampled), without its
 * attribute copies, sampler call and span metrics.
 */
let idsOnly = false;
const ids = new RandomIdGenerator();

/** A span that records nothing but has its ids: a child of the span in `parent`, or a new trace. */
function nonRecordingSpan(parent: Context): Span {
  if (isTracingSuppressed(parent)) return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
  const parentSpan = trace.getSpanContext(parent);
  const child = parentSpan !== undefined && trace.isSpanContextValid(parentSpan);
  return trace.wrapSpanContext({
    traceId: child ? parentSpan.traceId : ids.generateTraceId(),
    spanId: ids.generateSpanId(),
    traceFlags: TraceFlags.NONE,
    traceState: child ? parentSpan.traceState : undefined,
  });
}

export interface Tracing {
  /** True when spans are recorded and exported. */
  exporting: boolean;
  /** Exports what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * Registers the process's tracer provider (context manager and W3C propagator included).
 * `OTEL_TRACES_SAMPLER_ARG` (0..1, default 1) is the share of new traces recorded; a trace that
 * arrives with a `traceparent` follows its sampled flag.
 *
 * @example const tracing = startTracing('document'); … await tracing.shutdown();
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Tracing {
  if (!telemetryOn()) return { exporting: false, shutdown: async () => {} };
  const exporting = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG ?? 1);
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName })),
    sampler: exporting
      ? new ParentBasedSampler({
          root: new TraceIdRatioBasedSampler(Number.isFinite(ratio) ? Math.min(1, Math.max(0, ratio)) : 1),
        })
      : new AlwaysOffSampler(),
    // The exporter reads its endpoint, headers and timeout from the OTEL_EXPORTER_OTLP_* variables.
    spanProcessors: exporting ? [new BatchSpanProcessor(new OTLPTraceExporter())] : [],
  });
  provider.register();
  idsOnly = !exporting;
  return {
    exporting,
    shutdown: () => {
      idsOnly = false;
      return provider.shutdown();
    },
  };
}

export interface InSpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Default: the active context. */
  parent?: Context;
}

/** `work` in `span`, ended when `work` settles; a throw marks the span as failed. */
async function runInSpan<T>(span: Span, work: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await work(span);
  } catch (error) {
    markFailed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Runs `work` in a new active span, ended when `work` settles; a throw marks the span as failed.
 * With telemetry off, `work` runs in the caller's context with a span that records nothing.
 *
 * @example const blob = await inSpan('blobstore.put', { attributes }, () => blobs.put(stream));
 */
export function inSpan<T>(
  name: string,
  options: InSpanOptions,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  if (!telemetryOn()) return work(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  const { parent = context.active(), ...spanOptions } = options;
  // No closure named per call: tsx (esbuild's keepNames) gives each a name with defineProperty.
  if (idsOnly) {
    const span = nonRecordingSpan(parent);
    return context.with(trace.setSpan(parent, span), runInSpan<T>, undefined, span, work);
  }
  return tracer.startActiveSpan(name, spanOptions, parent, (span) => runInSpan(span, work));
}

/** Starts a span without making it active (the caller ends it). */
export function startSpan(name: string, options: InSpanOptions): Span {
  const { parent = context.active(), ...spanOptions } = options;
  return idsOnly ? nonRecordingSpan(parent) : tracer.startSpan(name, spanOptions, parent);
}

export function markFailed(span: Span, error: unknown): void {
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.name : 'error',
  });
}
