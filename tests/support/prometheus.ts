/**
 * Reads a Prometheus exposition with the Prometheus project's own parser (PyPI prometheus-client,
 * installed by infra/local/install-prom-parser.sh): what does not parse there throws here.
 */
import { execFileSync } from 'node:child_process';
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

let python: string | undefined;

export function parseExposition(text: string): MetricFamily[] {
  python ??= execFileSync('bash', [join(ROOT, 'infra/local/install-prom-parser.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  return JSON.parse(execFileSync(python, ['-c', PARSE], { input: text, encoding: 'utf8' }));
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
