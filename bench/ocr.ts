/**
 * OCR benchmark (`pnpm bench:ocr`): seconds per page of tesseract.js (a warm worker of the recognition
 * pool) beside native Tesseract (Debian's tesseract-ocr, OMP_THREAD_LIMIT=1) on the same generated A4
 * pages at 300 dpi, the two sides taking turns in PAIRS rounds (the median of the per-round ratios);
 * then the pool's pages per minute with 1 and 2 workers, also in turns. Bounded: a fixed number of
 * pages per round and of rounds. Writes bench/RESULTS.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOcrPool, drawPagePng } from '@docflow/recognition';
import { machine, writeSection } from './results';
import { alternate, loadNote, loadNow, median, type Pair, pairList, pairMedians } from './support';

const PAGES = 6;
const THROUGHPUT_JOBS = 12;
const PAIRS = 5;

/** One side's round over every page: the median seconds per page (ms), and each page's. */
interface PageRound {
  median: number;
  times: number[];
}

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

const s = (ms: number) => (ms / 1000).toFixed(2);

const tesseractVersion = spawnSync('tesseract', ['--version'], { encoding: 'utf8' });
if (tesseractVersion.status !== 0) {
  console.error(
    'native tesseract is missing: run `bash infra/local/install-tesseract.sh` (pnpm bench:ocr does)',
  );
  process.exit(1);
}

const started = loadNote();
const dir = mkdtempSync(join(tmpdir(), 'docflow-ocr-bench-'));
try {
  const pages = Array.from({ length: PAGES }, (_, i) => page(i));
  const files = pages.map((png, i) => {
    const file = join(dir, `page-${i}.png`);
    writeFileSync(file, png);
    return file;
  });

  /** Native tesseract over every page, a process each. */
  const nativeRound = async (): Promise<PageRound> => {
    const times = files.map((file) => {
      const pageStarted = performance.now();
      const run = spawnSync('tesseract', [file, 'stdout', '-l', 'eng', '--oem', '1'], {
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
        encoding: 'utf8',
      });
      if (run.status !== 0) throw new Error(run.stderr);
      return performance.now() - pageStarted;
    });
    return { median: median(times), times };
  };

  type Pool = Awaited<ReturnType<typeof createOcrPool>>;
  /** Every pool made, ended when the measuring ends, however it ends. */
  const pools: Pool[] = [];
  const newPool = async (size: number) => {
    const pool = await createOcrPool({ size, maxQueue: THROUGHPUT_JOBS });
    pools.push(pool);
    return pool;
  };
  /** tesseract.js over every page, one after another on the one-worker pool. */
  const jsRound = async (pool: Pool): Promise<PageRound> => {
    const times: number[] = [];
    for (const png of pages) {
      const pageStarted = performance.now();
      await pool.recognize(png);
      times.push(performance.now() - pageStarted);
    }
    return { median: median(times), times };
  };
  async function pagesPerMinute(pool: Pool): Promise<number> {
    const poolStarted = performance.now();
    await Promise.all(Array.from({ length: THROUGHPUT_JOBS }, (_, i) => pool.recognize(pages[i % PAGES]!)));
    return (THROUGHPUT_JOBS / (performance.now() - poolStarted)) * 60_000;
  }

  let perPage: Pair<PageRound, PageRound>[];
  let throughput: Pair<number, number>[];
  try {
    const one = await newPool(1);
    const two = await newPool(2);
    await jsRound(one); // both pools' workers warm before timing
    await pagesPerMinute(two);
    console.log(
      `seconds per page: tesseract.js and native tesseract over ${PAGES} pages, ${PAIRS} rounds in turns`,
    );
    perPage = await alternate(PAIRS, () => jsRound(one), nativeRound);
    console.log(
      `pool throughput: ${THROUGHPUT_JOBS} pages with 2 workers and with 1, ${PAIRS} rounds in turns`,
    );
    throughput = await alternate(
      PAIRS,
      () => pagesPerMinute(two),
      () => pagesPerMinute(one),
    );
  } finally {
    for (const pool of pools) await pool.terminate();
  }

  const seconds = pairMedians(
    perPage,
    (js) => js.median,
    (native) => native.median,
  );
  const all = (side: 'docflow' | 'reference') => perPage.flatMap((p) => p[side].times);
  const workers = pairMedians(
    throughput,
    (two) => two,
    (one) => one,
  );
  const body = `## OCR: tesseract.js beside native Tesseract

Command: \`pnpm bench:ocr\` · ${new Date().toISOString()} · ${machine()} · ${started}, at the end ${loadNow()}
Pages: ${PAGES} generated A4 pages, 300 dpi, 8-bit grey PNG, English. Native: \`${tesseractVersion.stdout.split('\n')[0]}\`,
\`OMP_THREAD_LIMIT=1\`, \`--oem 1\`, one process per page (its start-up and model load included).
tesseract.js: the recognition service's pool (\`4.0.0_best_int\` eng data), workers warmed up before timing.
Per page: ${PAIRS} rounds of every page on each side, taking turns (native first in every second round); the figures
are medians over the rounds of each round's median, the ratio the median of the per-round ratios (rounds, seconds per
page, tesseract.js/native: ${pairList(
    perPage,
    (js) => js.median / 1000,
    (native) => native.median / 1000,
    2,
  )}).

| measure | tesseract.js | native tesseract (reference) | ratio |
|---|---|---|---|
| seconds per page, median | ${s(seconds.docflow)} | ${s(seconds.reference)} | ${seconds.ratio.toFixed(2)}× |
| seconds per page, min – max over every round | ${s(Math.min(...all('docflow')))} – ${s(Math.max(...all('docflow')))} | ${s(Math.min(...all('reference')))} – ${s(Math.max(...all('reference')))} | |

Throughput: ${THROUGHPUT_JOBS} pages submitted at once to the pool with 2 workers and with 1, ${PAIRS} rounds taking turns
(pages per minute, 2 workers/1: ${pairList(
    throughput,
    (two) => two,
    (one) => one,
  )}).

| pool | pages per minute, median | vs 1 worker |
|---|---|---|
| 1 worker | ${workers.reference.toFixed(1)} | 1.00× |
| 2 workers | ${workers.docflow.toFixed(1)} | ${workers.ratio.toFixed(2)}× (median of the rounds' ratios) |
`;
  writeSection('ocr', body);
  console.log(body);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
