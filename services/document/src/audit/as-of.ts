/** Which revision of a document was current at an instant (`?asOf=`). */
import { docFormStream } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { problems } from '@docflow/kit/http';

/**
 * The revision the store held at `instant`: of the last event recorded at or before it (`recordedAt`,
 * which grows along a stream; the `time` an event was decided need not: a workflow fact arriving from
 * the bus keeps the time the workflow service decided it). 404 when the document did not exist yet.
 */
export async function revisionAsOf(store: EventStore, docId: string, instant: string): Promise<number> {
  const at = Date.parse(instant);
  const events = await store.readStream(docFormStream(docId));
  const later = events.findIndex((e) => Date.parse(e.recordedAt) > at);
  const prefix = later === -1 ? events : events.slice(0, later);
  const revision = prefix.at(-1)?.revision;
  if (revision === undefined) throw problems.notFound(`the document did not exist at ${instant}`);
  return revision;
}
