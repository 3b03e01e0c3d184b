/**
 * Worst time of user patterns (`pnpm exec tsx bench/patterns.ts`): hostile recognition forms (classic
 * ReDoS patterns, a 1000-character pattern, and the largest program the form check accepts) over text
 * PDFs whose pages carry the most text recognition reads (MAX_PAGE_TEXT characters: the keyword, then
 * a's up to a final `!` that makes every `$` fail). For each: the time to recognise a one-page and a
 * 200-page document (the page bound of a PDF), whether the 200 pages ended at the pattern budget, and the
 * longest the event loop was held meanwhile. Writes its section of bench/RESULTS.md; nothing is asserted.
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createOcrPool, MAX_PAGE_TEXT, type OcrPool, recognizeFile, textPdf } from '@docflow/recognition';
import { machine, writeSection } from './results';

type FormDefinition = Parameters<typeof recognizeFile>[1];

const MAX_PDF_PAGES = 200;
const KEYWORD_LINE = 'INVOICE';

const HOSTILE: Array<[name: string, pattern: string | undefined]> = [
  // The same documents without a field pattern: what reading the PDF costs alone.
  ['baseline: the keyword only, no field', undefined],
  ['(a+)+$', '(a+)+$'],
  ['(a|aa)+$', '(a|aa)+$'],
  ['(.*a){20}', '(.*a){20}'],
  ['1000 characters: `(a+)+` × 199, `$`', `${'(a+)+'.repeat(199)}$`],
  ['1000 characters: `(.*a)` × 199, `$`', `${'(.*a)'.repeat(199)}$`],
  ['the largest program accepted: (.*a){199}', '(.*a){199}'],
];

function hostileForm(pattern: string | undefined): FormDefinition {
  return {
    name: 'hostile',
    title: 'Hostile',
    formsystype: 1,
    tags: { run: 'string', rows: 'table' },
    recognition: {
      forms: [
        {
          id: 'h',
          name: 'Hostile',
          match: ['invoice'],
          fields: pattern ? { run: pattern, rows: pattern } : {},
        },
      ],
    },
  };
}

/** A page of exactly MAX_PAGE_TEXT characters in its text layer: the keyword, then a's and a `!`. */
function hostilePdf(pages: number): Buffer {
  const run = `${'a'.repeat(MAX_PAGE_TEXT - KEYWORD_LINE.length - 2)}!`;
  // A tiny font keeps the long line on the page (pdf.js drops text beyond it).
  const page = [{ text: KEYWORD_LINE }, { text: run, size: 0.03 }];
  return textPdf(Array.from({ length: pages }, () => page));
}

async function measure(pool: OcrPool, pattern: string | undefined, pdf: Buffer) {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  const result = await recognizeFile({ data: pdf }, hostileForm(pattern), pool);
  const ms = performance.now() - started;
  loop.disable();
  const outcome = result.ok ? `${result.parts.length} part(s)` : `${result.reason}`;
  return { ms, outcome, loopMaxMs: loop.max / 1e6 };
}

const s = (ms: number) => (ms / 1000).toFixed(2);
const pool = await createOcrPool({ size: 1 });
try {
  const onePage = hostilePdf(1);
  const allPages = hostilePdf(MAX_PDF_PAGES);
  // Warm-up: the first recognition loads and compiles code that later ones find ready.
  await measure(pool, 'Total (\\d+)', onePage);
  const rows = [
    '| pattern | 1 page: s (loop held ≤ ms) | 200 pages: s, outcome (loop held ≤ ms) |',
    '|---|---|---|',
  ];
  for (const [name, pattern] of HOSTILE) {
    const one = await measure(pool, pattern, onePage);
    const all = await measure(pool, pattern, allPages);
    rows.push(
      `| ${name.replaceAll('|', '\\|')} | ${s(one.ms)} (${Math.round(one.loopMaxMs)}) | ${s(all.ms)}, ${all.outcome} (${Math.round(all.loopMaxMs)}) |`,
    );
    console.log(rows.at(-1));
  }
  writeSection(
    'patterns',
    `## User patterns: hostile recognition forms on RE2

\`pnpm exec tsx bench/patterns.ts\` on ${machine()}, ${new Date().toISOString().slice(0, 16)} UTC, load ${loadavg()[0]!.toFixed(1)}.
Each form has the pattern as a string field and as a table field; each page's text layer is ${MAX_PAGE_TEXT}
characters (the most patterns read of a page): the keyword, then a's and a \`!\`. "Loop held" is the
longest delay of the event loop (monitorEventLoopDelay); the baseline row is what reading the PDF holds alone.

${rows.join('\n')}

One pattern run holds the loop at most for the run; a file's patterns stop at the 30 s budget (\`timeout\`).`,
  );
  console.log(`\n${rows.join('\n')}`);
} finally {
  await pool.terminate();
}
