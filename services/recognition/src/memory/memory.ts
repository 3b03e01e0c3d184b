/**
 * A form's recognition memory, folded from its `idpmemory-<formName>` stream: per supplier, per tag,
 * the place learnt last (a later correction replaces an earlier one); a forgotten supplier is gone.
 */

import { isDeepStrictEqual } from 'node:util';
import {
  parseRecognitionMemoryEvent,
  type RecognitionMemoryEvent,
  type RememberedPlace,
} from '@docflow/contracts';
import type { Aggregate } from '@docflow/kit/eventsourcing';

export type MemoryState = Readonly<Record<string, Readonly<Record<string, RememberedPlace>>>>;

export function evolveMemory(state: MemoryState, event: RecognitionMemoryEvent): MemoryState {
  switch (event.type) {
    case 'PlaceRemembered': {
      const { supplier, tag, place } = event.data;
      return { ...state, [supplier]: { ...state[supplier], [tag]: place } };
    }
    case 'SupplierForgotten': {
      const { [event.data.supplier]: _, ...rest } = state;
      return rest;
    }
  }
}

export const memoryAggregate: Aggregate<MemoryState, RecognitionMemoryEvent> = {
  initial: {},
  evolve: evolveMemory,
  parse: parseRecognitionMemoryEvent,
};

/** The places learnt that the memory does not hold yet (a redelivered correction adds nothing). */
export function decideRemember(
  state: MemoryState,
  learnt: readonly RecognitionMemoryEvent[],
): RecognitionMemoryEvent[] {
  return learnt.filter(
    (e) =>
      e.type !== 'PlaceRemembered' || !isDeepStrictEqual(state[e.data.supplier]?.[e.data.tag], e.data.place),
  );
}

/** An admin's removal of a supplier: nothing when the memory holds none of it. */
export function decideForget(state: MemoryState, supplier: string): RecognitionMemoryEvent[] {
  return state[supplier] ? [{ type: 'SupplierForgotten', data: { supplier } }] : [];
}
