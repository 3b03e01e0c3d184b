/** Shared by the benchmarks: an autocannon run reduced to the figures RESULTS.md shows, and formatting. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { EventStore } from '@docflow/eventstore';
import autocannon, { type Request } from 'autocannon';

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds the load lasts. */
  duration: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Changes each request before it is sent (e.g. a different prebuilt body). */
  setupRequest?: (request: Request) => Request;
}

export interface LoadFigures {
  rps: number;
  /** 2xx answers per second. */
  okPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  /** Responses that were not 2xx, plus socket errors and timeouts. */
  failures: number;
}

/** One bounded autocannon run (its duration, 10 s timeout per request) against 127.0.0.1. */
export async function load(options: LoadOptions): Promise<LoadFigures> {
  if (!new URL(options.url).hostname.startsWith('127.0.0.1')) throw new Error('loopback only');
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.duration,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    body: options.body,
    ...(options.setupRequest ? { requests: [{ setupRequest: options.setupRequest }] } : {}),
    timeout: 10,
  });
  return {
    rps: result.requests.average,
    okPerSecond: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** Percentile of a sample (nearest rank). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const fixed = (n: number, digits = 1): string => n.toFixed(digits);
export const pct = (part: number, whole: number): string => `${((part / whole) * 100).toFixed(0)}%`;
export const verdict = (met: boolean): string => (met ? 'met' : '**missed**');

/** The 1-minute load average when a benchmark started: other work on the machine skews its figures. */
export const loadNote = (): string =>
  `load average at start ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`;

/** The 1-minute load average now, e.g. at the end of a section, to print beside `loadNote()`. */
export const loadNow = (): string => os.loadavg()[0]!.toFixed(1);

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** One round of an alternating comparison: docflow's figure and the reference's, measured back to back. */
export interface Pair<D, R> {
  docflow: D;
  reference: R;
}

/**
 * Measures docflow and its reference alternately, `pairs` times, starting with the other side every
 * second pair: a slow spell of the shared machine or its disk then hits both sides alike, and the median
 * of the per-pair ratios (`medianRatio`) no longer swings with it.
 */
export async function alternate<D, R>(
  pairs: number,
  docflow: (pair: number) => Promise<D>,
  reference: (pair: number) => Promise<R>,
): Promise<Array<Pair<D, R>>> {
  const out: Array<Pair<D, R>> = [];
  for (let i = 0; i < pairs; i++) {
    console.log(`pair ${i + 1} of ${pairs} (load ${loadNow()})`);
    if (i % 2 === 0) {
      const d = await docflow(i);
      out.push({ docflow: d, reference: await reference(i) });
    } else {
      const r = await reference(i);
      out.push({ docflow: await docflow(i), reference: r });
    }
  }
  return out;
}

/** The median over pairs of docflow's figure divided by the reference's. */
export function medianRatio<D, R>(
  pairs: ReadonlyArray<Pair<D, R>>,
  docflow: (d: D) => number,
  reference: (r: R) => number,
): number {
  return median(pairs.map((p) => docflow(p.docflow) / reference(p.reference)));
}

/** Medians over pairs of docflow's figure and of the reference's, and the median of their ratios. */
export function pairMedians<D, R>(
  pairs: ReadonlyArray<Pair<D, R>>,
  docflow: (d: D) => number,
  reference: (r: R) => number,
): { docflow: number; reference: number; ratio: number } {
  return {
    docflow: median(pairs.map((p) => docflow(p.docflow))),
    reference: median(pairs.map((p) => reference(p.reference))),
    ratio: medianRatio(pairs, docflow, reference),
  };
}

/** The per-pair figures in a line, e.g. `1.9k/17k, 2.0k/16k`, for a section's notes. */
export function pairList<D, R>(
  pairs: ReadonlyArray<Pair<D, R>>,
  docflow: (d: D) => number,
  reference: (r: R) => number,
  digits = 0,
): string {
  return pairs
    .map((p) => `${fixed(docflow(p.docflow), digits)}/${fixed(reference(p.reference), digits)}`)
    .join(', ');
}

/**
 * A new file for a docflow process's log: it writes there itself, as it would to a log shipper, instead
 * of through a pipe this process (which also runs the load generator) would have to read.
 */
export function newLogFile(name: string): string {
  return join(newLogDir(name), `${name}.log`);
}

/** A new directory for the logs of several docflow processes (distributed mode), removed on exit. */
export function newLogDir(name: string): string {
  const dir = mkdtempSync(join(os.tmpdir(), `docflow-bench-log-${name}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const TICK_US = 1e6 / 100;

/** User and kernel CPU time of a process in microseconds, from /proc (clock ticks of 10 ms). */
export function processCpuMicros(pid: number): { user: number; sys: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) * TICK_US, sys: Number(fields[12]) * TICK_US };
}

/**
 * A store's catch-up subscription from the start until it handled the newest event: events/s. Closes
 * the store; fails after `maxMs`.
 */
export async function replayRate(store: EventStore, maxMs: number): Promise<number> {
  const head = await store.headPosition();
  let handled = 0;
  const replayStarted = performance.now();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`replay did not finish in ${maxMs} ms`)), maxMs);
    const subscription = store.subscribeAll({}, async (e) => {
      handled++;
      if (e.position === head) {
        clearTimeout(timer);
        void subscription.stop().then(resolve);
      }
    });
  });
  const rate = handled / ((performance.now() - replayStarted) / 1000);
  await store.close();
  return rate;
}
