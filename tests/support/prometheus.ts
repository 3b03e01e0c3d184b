/**
 * Reads a Prometheus exposition with the Prometheus project's own parser (PyPI prometheus-client,
 * installed by infra/local/install-prom-parser.sh): what does not parse there throws here.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  /** null for NaN and infinities. */
  value: number | null;
}

export interface MetricFamily {
  name: string;
  type: string;
  samples: Sample[];
}

const ROOT = join(import.meta.dirname, '..', '..');

const PARSE = `
import json, math, sys
from prometheus_client.parser import text_string_to_metric_families
families = [
    {"name": f.name, "type": f.type, "samples": [
        {"name": s.name, "labels": s.labels, "value": s.value if math.isfinite(s.value) else None}
        for s in f.samples]}
    for f in text_string_to_metric_families(sys.stdin.read())]
print(json.dumps(families))
`;

/** What `file args` prints on stdout, given `input` on stdin; its stderr shows (the parser's install). */
function output(file: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(Buffer.concat(chunks).toString('utf8'))
        : reject(new Error(`${file} ${args[0]}: exit ${code}`)),
    );
    child.stdin?.end(input);
  });
}

let python: Promise<string> | undefined;

/**
 * Asynchronous: on a fresh machine the first call installs the parser (seconds), and a caller's event
 * loop blocked that long keeps pooled keep-alive sockets the server has closed meanwhile, so its next
 * request fails ("other side closed").
 */
export async function parseExposition(text: string): Promise<MetricFamily[]> {
  python ??= output('bash', [join(ROOT, 'infra/local/install-prom-parser.sh')]).then((path) => path.trim());
  return JSON.parse(await output(await python, ['-c', PARSE], text));
}

/** The samples named `name` whose labels include `labels`. */
export function samples(
  families: MetricFamily[],
  name: string,
  labels: Record<string, string> = {},
): Sample[] {
  return families
    .flatMap((f) => f.samples)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}
