/** The OCR pool with a span around each page (waiting for a worker included). */
import { inSpan, SERVICE_ATTRIBUTE } from '@docflow/kit';
import type { OcrPool } from './ocr-pool';

/** @example const pool = traceOcrPool(await createOcrPool({ size: 2 })); */
export function traceOcrPool(pool: OcrPool): OcrPool {
  return {
    languages: pool.languages,
    recognize: (image, segmentation) =>
      inSpan('ocr.page', { attributes: { [SERVICE_ATTRIBUTE]: 'recognition' } }, async (span) => {
        const result = await pool.recognize(image, segmentation);
        span.setAttributes({ 'docflow.ocr.confidence': result.confidence, 'docflow.ocr.ms': result.ms });
        return result;
      }),
    toPng: (image) => pool.toPng(image),
    stats: () => pool.stats(),
    terminate: () => pool.terminate(),
  };
}
