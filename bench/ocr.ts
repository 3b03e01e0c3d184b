/**
 * OCR benchmark (`pnpm bench:ocr`): seconds per page of tesseract.js (a warm worker of the recognition
 * pool) beside native Tesseract (Debian's tesseract-ocr, OMP_THREAD_LIMIT=1) on the same generated A4
 * pages at 300 dpi, in the same run; then the pool's pages per minute with 1 and 2 workers.
 * Bounded: a fixed number of pages, each step once. Writes bench/RESULTS.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOcrPool, drawPagePng } from '@docflow/recognition';
import { machine, writeSection } from './results';

const PAGES = 6;
const THROUGHPUT_JOBS = 12;

function page(i: number): Buffer {
  return drawPagePng([
    { text: i % 2 ? 'DELIVERY NOTE' : 'INVOICE', size: 28 },
    { text: `ACME GmbH, Hauptstrasse ${i + 1}, 10115 Berlin` },
    { text: `Invoice No. INV-2026-${String(100 + i)}` },
    { text: 'Date: 2026-03-14   Due: 2026-04-14' },
    { text: `Item ${i}: 3 pallets of assorted widgets, 12.50 each` },
    { text: `Total: ${(1234.5 + i).toFixed(2)}` },
  ]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => (ms / 1000).toFixed(2);

const tesseractVersion = spawnSync('tesseract', ['--version'], { encoding: 'utf8' });
if (tesseractVersion.status !== 0) {
  console.error(
    'native tesseract is missing: run `bash infra/local/install-tesseract.sh` (pnpm bench:ocr does)',
  );
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'docflow-ocr-bench-'));
try {
  const pages = Array.from({ length: PAGES }, (_, i) => page(i));
  const files = pages.map((png, i) => {
    const file = join(dir, `page-${i}.png`);
    writeFileSync(file, png);
    return file;
  });

  console.log(`native tesseract: ${PAGES} pages`);
  const native = files.map((file) => {
    const started = performance.now();
    const run = spawnSync('tesseract', [file, 'stdout', '-l', 'eng', '--oem', '1'], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(run.stderr);
    return performance.now() - started;
  });

  console.log('tesseract.js: one warm worker');
  const single = await createOcrPool({ size: 1, maxQueue: THROUGHPUT_JOBS });
  const js: number[] = [];
  for (const png of pages) {
    const started = performance.now();
    await single.recognize(png);
    js.push(performance.now() - started);
  }

  async function pagesPerMinute(pool: Awaited<ReturnType<typeof createOcrPool>>): Promise<number> {
    const started = performance.now();
    await Promise.all(Array.from({ length: THROUGHPUT_JOBS }, (_, i) => pool.recognize(pages[i % PAGES]!)));
    return (THROUGHPUT_JOBS / (performance.now() - started)) * 60_000;
  }
  console.log(`pool throughput: ${THROUGHPUT_JOBS} pages with 1 worker, then 2`);
  const one = await pagesPerMinute(single);
  await single.terminate();
  const pair = await createOcrPool({ size: 2, maxQueue: THROUGHPUT_JOBS });
  const two = await pagesPerMinute(pair);
  await pair.terminate();

  const nativeMedian = median(native);
  const jsMedian = median(js);
  const body = `## OCR: tesseract.js beside native Tesseract

Command: \`pnpm bench:ocr\` · ${new Date().toISOString()} · ${machine()}
Pages: ${PAGES} generated A4 pages, 300 dpi, 8-bit grey PNG, English. Native: \`${tesseractVersion.stdout.split('\n')[0]}\`,
\`OMP_THREAD_LIMIT=1\`, \`--oem 1\`, one process per page (its start-up and model load included).
tesseract.js: the recognition service's pool (\`4.0.0_best_int\` eng data), worker warmed up before timing.

| measure | tesseract.js | native tesseract (reference) | ratio |
|---|---|---|---|
| seconds per page, median | ${s(jsMedian)} | ${s(nativeMedian)} | ${(jsMedian / nativeMedian).toFixed(2)}× |
| seconds per page, min – max | ${s(Math.min(...js))} – ${s(Math.max(...js))} | ${s(Math.min(...native))} – ${s(Math.max(...native))} | |

| pool | pages per minute (${THROUGHPUT_JOBS} pages submitted at once) | vs 1 worker |
|---|---|---|
| 1 worker | ${one.toFixed(1)} | 1.00× |
| 2 workers | ${two.toFixed(1)} | ${(two / one).toFixed(2)}× |
`;
  writeSection('ocr', body);
  console.log(body);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
