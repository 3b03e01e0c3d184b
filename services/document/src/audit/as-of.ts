/** Which revision of a document was current at an instant (`?asOf=`). */
import { docFormStream } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { problems } from '@docflow/kit/http';

/**
 * The revision current at `instant`, by the time each event was decided (its metadata's `timestamp`:
 * what the representation shows as `_created` and `_lastModified` and the history as `time`): the
 * last of the events before the first one decided after the instant. Those times need not grow along
 * a stream (a workflow fact arriving from the bus keeps the time the workflow service decided it), so
 * the answer never holds a change decided after the instant. 404 when the document did not exist yet.
 */
export async function revisionAsOf(store: EventStore, docId: string, instant: string): Promise<number> {
  const at = Date.parse(instant);
  const events = await store.readStream(docFormStream(docId));
  const later = events.findIndex((e) => Date.parse(e.metadata.timestamp) > at);
  const prefix = later === -1 ? events : events.slice(0, later);
  const revision = prefix.at(-1)?.revision;
  if (revision === undefined) throw problems.notFound(`the document did not exist at ${instant}`);
  return revision;
}
