/** Reading a document as the request's principal may: its state, or 404 (also when it may not read it). */
import { type DeputiesOf, docFormStream } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { loadAggregate } from '@docflow/kit/eventsourcing';
import { type Principal, problems, type ServiceEnv } from '@docflow/kit/http';
import type { Context } from 'hono';
import type { DeputiesReadModel } from '../views/deputies';
import { canRead, participantsOf } from './access';
import { resolveDocId } from './doc-id';
import { type DocState, docAggregate } from './docForm';

export interface DocReader {
  /** The users whose enabled deputy the caller is, as the deputies read model has them now. */
  deputiesOfCaller(principal: Principal): DeputiesOf;
  /** The document as the caller may see it, or 404 (also when the caller may not read it). */
  readableDoc(c: Context<ServiceEnv>, rawId: string): Promise<DocState>;
}

export function docReader(store: EventStore, deputies: Pick<DeputiesReadModel, 'standsInFor'>): DocReader {
  const deputiesOfCaller = (principal: Principal): DeputiesOf =>
    Object.fromEntries(
      deputies.standsInFor(principal.subject).map((user) => [user, { id: principal.subject, enabled: true }]),
    );
  return {
    deputiesOfCaller,
    async readableDoc(c, rawId) {
      const id = resolveDocId(rawId);
      const { state } = await loadAggregate(store, docFormStream(id), docAggregate);
      const principal = c.get('principal');
      if (canRead(principal, state)) return state;
      // Perhaps the caller stands in for a participant: only then is the deputies read model asked.
      if (
        state.exists &&
        participantsOf(state).length &&
        canRead(principal, state, deputiesOfCaller(principal))
      )
        return state;
      throw problems.notFound('no such document');
    },
  };
}
