/**
 * One switch per process for the metrics and tracing instruments on the request path
 * (`DOCFLOW_TELEMETRY=off`): the HTTP middleware, the event-store, bus and blob-store wrappers, the
 * client and OCR spans and the tracer provider are then not installed, so a request pays nothing for
 * them (bench/RESULTS.md, "GET document", measures both ways). Process-wide like the Prometheus
 * registry and the tracer provider it governs; runService sets it from the environment before any app
 * or engine is built, and the factories read it when they are called.
 */
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';

export const telemetrySetting = z.enum(['on', 'off'], { message: '`on` (default) or `off`' }).default('on');

let enabled = true;

export function setTelemetry(setting: z.infer<typeof telemetrySetting>): void {
  enabled = setting === 'on';
}

export function telemetryOn(): boolean {
  return enabled;
}

/** What an instrumenting middleware factory returns with telemetry off. */
export const skipMiddleware: MiddlewareHandler = (_c, next) => next();
