/**
 * A hostile file's recognition watched for liveness (issue 29): the document is created with the file
 * while `/healthz` is probed every PROBE_EVERY_MS, from before the upload until its recognition ended;
 * every probe must answer 200 within HEALTHZ_BOUND_MS (the bound). In distributed mode each
 * process given is probed (the gateway and the recognition service).
 */
import assert from 'node:assert/strict';
import { createDoc } from './documents';
import { apiClient } from './http';
import type { Target } from './targets';

/** The liveness bound. */
const HEALTHZ_BOUND_MS = 2000;
const PROBE_EVERY_MS = 150;
const POLL_EVERY_MS = 200;
/** On main before issue 29 the 16-page file kept /healthz slow for the whole job; it now ends in seconds. */
const HOSTILE_WAIT_MS = 240_000;

export interface Recognised {
  /** The document with `?embed=recoData` once its recognition is no longer pending (or the wait ended). */
  doc: any;
  /** The data of its RecognitionFailed event, if it has one. */
  failure?: { reason: string; detail: string };
}

/**
 * Creates a document of the sample form `invoice` (it has recognition forms) with `content`, waits for
 * its recognition to end, and fails if any /healthz probe of `probed` (base URLs; default the target's)
 * meanwhile missed HEALTHZ_BOUND_MS.
 */
export async function recogniseWhileProbing(
  target: Target,
  fileName: string,
  content: Uint8Array,
  type: string,
  probed: string[] = [target.baseUrl],
): Promise<Recognised> {
  const api = apiClient(target.baseUrl);
  const slowProbes: string[] = [];
  let probes = 0;
  let running = true;
  const probe = async (url: string) => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(HEALTHZ_BOUND_MS) });
        await res.arrayBuffer();
        if (res.status !== 200) slowProbes.push(`${url}: status ${res.status}`);
      } catch (err) {
        slowProbes.push(`${url}: ${String(err)} after ${Math.round(performance.now() - started)} ms`);
      }
      probes++;
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  };
  const probing = Promise.all(probed.map(probe));
  try {
    const created = await createDoc(target.baseUrl, target.adminKey, 'invoice', {
      docForm: {},
      files: [{ name: fileName, content, type }],
    });
    assert.equal(created.status, 201, created.text);
    const id: string = created.body._id;
    const end = Date.now() + HOSTILE_WAIT_MS;
    let doc = await api('GET', `/api/v2/docForm/${id}?embed=recoData`, { key: target.adminKey });
    while (doc.body.recoStatus === 'pending' && Date.now() < end) {
      await new Promise((r) => setTimeout(r, POLL_EVERY_MS));
      doc = await api('GET', `/api/v2/docForm/${id}?embed=recoData`, { key: target.adminKey });
    }
    const history = await api('GET', `/api/v2/docForm/${id}/history`, { key: target.adminKey });
    const failed = history.body.find((e: any) => e.type === 'RecognitionFailed');
    return { doc: doc.body, failure: failed?.data };
  } finally {
    running = false;
    await probing;
    assert.deepEqual(
      slowProbes,
      [],
      `/healthz missed its ${HEALTHZ_BOUND_MS} ms bound in ${slowProbes.length} of ${probes} probes`,
    );
  }
}
