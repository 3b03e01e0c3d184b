/**
 * Hostile files benchmark (issue 29): for the worst hostile file of each kind — a PDF whose page tree is
 * 400,000 levels deep, PDFs of 16 and of 200 blank 200 × 200-inch pages, PNGs declaring 60000 × 60000
 * pixels of 1 bit and 30000 × 30000 of 8 bits, a PDF page drawing such an image, soft-mask bombs (the
 * catalogue the hostile tests use, tests/support/hostile-recognition) — and, as the reference, an
 * ordinary scanned invoice: a fresh embedded docflow, one document of the
 * sample form `invoice` with the file, and while its recognition runs, /healthz every 100 ms (the
 * longest answer) and the process's resident memory (the peak of the samples, threads included).
 * Bounded: one document per file, at most JOB_LIMIT_MS each. Writes bench/RESULTS.md.
 */
import { readFileSync } from 'node:fs';
import { drawPageEncoded } from '@docflow/recognition';
import { createDoc } from '../tests/support/documents';
import { HOSTILE_FILES } from '../tests/support/hostile-recognition';
import { apiClient } from '../tests/support/http';
import { startEmbedded } from '../tests/support/targets';
import { machine, writeSection } from './results';
import { loadNote, loadNow, newLogFile } from './support';

const PROBE_EVERY_MS = 100;
const JOB_LIMIT_MS = 300_000;
/** A probe is timed until it answers, up to this (a stalled process answers late, not never). */
const PROBE_LIMIT_MS = 120_000;

interface HostileFile {
  name: string;
  fileName: string;
  type: string;
  file: () => Promise<Uint8Array> | Uint8Array;
}

/** An ordinary scan as the reference, then the hostile files the tests use (tests/support/hostile-recognition). */
const FILES: HostileFile[] = [
  {
    name: 'ordinary scan (reference): A4 invoice PNG, 300 dpi',
    fileName: 'invoice.png',
    type: 'image/png',
    file: () =>
      drawPageEncoded(
        [{ text: 'INVOICE', size: 28 }, { text: 'Invoice No. INV-2026-001' }, { text: 'Total: 1,234.50' }],
        'png',
      ),
  },
  ...Object.values(HOSTILE_FILES),
];

interface Figures {
  bytes: number;
  outcome: string;
  jobS: number;
  longestHealthzMs: number;
  probes: number;
  rssBeforeMiB: number;
  peakRssMiB: number;
}

const rssMiB = (pid: number): number =>
  Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024);

async function measure(file: HostileFile): Promise<Figures> {
  const content = await file.file();
  const docflow = await startEmbedded({ logFile: newLogFile('hostile-files') });
  try {
    const api = apiClient(docflow.baseUrl);
    const pid = docflow.pids().docflow!;
    const rssBeforeMiB = rssMiB(pid);
    let peakRssMiB = rssBeforeMiB;
    let longestHealthzMs = 0;
    let probes = 0;
    let running = true;
    const probing = (async () => {
      while (running) {
        const started = performance.now();
        const res = await fetch(`${docflow.baseUrl}/healthz`, {
          signal: AbortSignal.timeout(PROBE_LIMIT_MS),
        });
        await res.arrayBuffer();
        longestHealthzMs = Math.max(longestHealthzMs, performance.now() - started);
        peakRssMiB = Math.max(peakRssMiB, rssMiB(pid));
        probes++;
        await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
      }
    })();
    const jobStarted = performance.now();
    let outcome = 'pending';
    try {
      const created = await createDoc(docflow.baseUrl, docflow.adminKey, 'invoice', {
        docForm: {},
        files: [{ name: file.fileName, content, type: file.type }],
      });
      if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.text}`);
      const id: string = created.body._id;
      while (outcome === 'pending' && performance.now() - jobStarted < JOB_LIMIT_MS) {
        await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
        outcome = (await api('GET', `/api/v2/docForm/${id}`, { key: docflow.adminKey })).body.recoStatus;
      }
      if (outcome === 'failed') {
        const history = await api('GET', `/api/v2/docForm/${id}/history`, { key: docflow.adminKey });
        outcome = `failed: ${history.body.find((e: any) => e.type === 'RecognitionFailed')?.data.reason}`;
      }
    } finally {
      running = false;
      await probing;
    }
    return {
      bytes: content.byteLength,
      outcome,
      jobS: (performance.now() - jobStarted) / 1000,
      longestHealthzMs,
      probes,
      rssBeforeMiB,
      peakRssMiB,
    };
  } finally {
    await docflow.stop();
  }
}

const started = loadNote();
const rows: string[] = [];
for (const file of FILES) {
  console.log(`hostile-files: ${file.name}`);
  const f = await measure(file);
  const size = f.bytes >= 1e6 ? `${(f.bytes / 1e6).toFixed(2)} MB` : `${(f.bytes / 1e3).toFixed(1)} KB`;
  rows.push(
    `| ${file.name} | ${size} | ${f.outcome} | ${f.jobS.toFixed(1)} | ${Math.round(f.longestHealthzMs)} (${f.probes} probes) | ${f.rssBeforeMiB} → ${f.peakRssMiB} |`,
  );
  console.log(rows.at(-1));
}

const body = `## Hostile files: liveness and memory during recognition (embedded)

\`pnpm exec tsx bench/hostile-files.ts\` — ${machine()}; ${started}, ${loadNow()} at the end.
Each file on a fresh embedded docflow (\`pnpm start\`'s process), one document of the sample form
\`invoice\`; from the upload until recognition ended, /healthz every ${PROBE_EVERY_MS} ms and the process's
RSS (threads included) sampled with each answer. The bound of issue 29: /healthz within 2 s throughout.

| file | size | recognition | job s | longest /healthz ms | RSS MiB: before → peak |
|---|---|---|---|---|---|
${rows.join('\n')}
`;
writeSection('hostile-files', body);
console.log(body);
