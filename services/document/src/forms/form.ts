/** The form aggregate: the latest definition of a `form-<name>` stream. */
import { type FormDefinition, type FormEvent, parseFormEvent } from '@docflow/contracts';
import type { Aggregate, EventContext } from '@docflow/kit/eventsourcing';

export interface FormState {
  definition: FormDefinition | null;
  created: string;
  lastModified: string;
  rev: number;
}

export const formAggregate: Aggregate<FormState, FormEvent> = {
  initial: { definition: null, created: '', lastModified: '', rev: 0 },
  evolve: (state: FormState, event: FormEvent, context: EventContext): FormState => ({
    definition: event.data.definition,
    created: state.created || context.metadata.timestamp,
    lastModified: context.metadata.timestamp,
    rev: context.revision,
  }),
  parse: parseFormEvent,
};

/** Defining a form the same way again changes nothing. */
export function decideDefineForm(definition: FormDefinition, state: FormState): FormEvent[] {
  if (state.definition && JSON.stringify(state.definition) === JSON.stringify(definition)) return [];
  return [{ type: 'FormDefined', data: { definition } }];
}
