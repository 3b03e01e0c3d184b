/** The OCR pool wrapped with its page count, page durations, failures and queue depth. */
import { DURATION_BUCKETS, measuredGauge, metricsRegistry } from '@docflow/kit/http';
import { Counter, Histogram } from 'prom-client';
import type { OcrPool } from './ocr-pool';

const pages = new Counter({
  name: 'docflow_ocr_pages_total',
  help: 'Pages OCRed (rate() of it: pages per second)',
  registers: [metricsRegistry],
});

const pageDuration = new Histogram({
  name: 'docflow_ocr_page_duration_seconds',
  help: 'Time an OCR worker spent on one page',
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

const failures = new Counter({
  name: 'docflow_ocr_failures_total',
  help: 'Pages whose OCR failed, by reason (overloaded, image, unavailable, other)',
  labelNames: ['reason'],
  registers: [metricsRegistry],
});

const REASONS: Record<string, string> = {
  OcrOverloadedError: 'overloaded',
  OcrImageError: 'image',
  OcrUnavailableError: 'unavailable',
};

const queueDepth = measuredGauge('docflow_ocr_queue_depth', 'Pages waiting for a free OCR worker', []);

/** @example const pool = instrumentOcrPool(await createOcrPool({ size: 2 })); */
export function instrumentOcrPool(pool: OcrPool): OcrPool {
  const untrack = queueDepth.track({}, async () => pool.stats().queued);
  return {
    languages: pool.languages,
    async recognize(image, segmentation) {
      try {
        const result = await pool.recognize(image, segmentation);
        pages.inc();
        pageDuration.observe(result.ms / 1000);
        return result;
      } catch (error) {
        failures.inc({ reason: REASONS[(error as Error)?.name] ?? 'other' });
        throw error;
      }
    },
    toPng: (image) => pool.toPng(image),
    stats: () => pool.stats(),
    terminate() {
      untrack();
      return pool.terminate();
    },
  };
}
