/** Writes one benchmark's section into bench/RESULTS.md, replacing the section it wrote before. */

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

const FILE = new URL('./RESULTS.md', import.meta.url).pathname;
const HEADER =
  '# Benchmark results\n\nEach section: the command that made it, the machine, and every figure beside its reference.\n';

export function machine(): string {
  return `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 1024 ** 3)} GiB memory, Node ${process.version}`;
}

export function writeSection(name: string, body: string): void {
  const text = existsSync(FILE) ? readFileSync(FILE, 'utf8') : HEADER;
  const start = `<!-- ${name} -->`;
  const end = `<!-- /${name} -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  const next =
    i >= 0 && j > i
      ? text.slice(0, i) + section + text.slice(j + end.length)
      : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(FILE, next);
}
