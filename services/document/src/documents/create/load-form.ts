/** Step 1 of a create: the form the document is made from, or 404. */
import type { FormDefinition } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { problems } from '@docflow/kit/http';
import { loadForm } from '../../forms/api';

/** @example const form = await loadCreateForm(store, 'memo'); */
export async function loadCreateForm(store: EventStore, formName: string): Promise<FormDefinition> {
  const { definition } = await loadForm(store, formName);
  if (!definition) throw problems.notFound(`no form ${formName}`);
  return definition;
}
