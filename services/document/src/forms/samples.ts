/** Sample forms that exist after the first start (DESIGN.md, "Forms"). */
import { randomUUID } from 'node:crypto';
import { type FormDefinition, formStream } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { commandMetadata, executeCommand } from '@docflow/kit';
import { formAggregate } from './form';

export const SAMPLE_FORMS: FormDefinition[] = [
  {
    name: 'memo',
    title: 'Internal memo',
    formsystype: 1,
    tags: { subject: 'string', body: 'string', lines: 'table' },
    workflow: {
      approval: { stages: [{ participants: ['bob@example.com'] }], next: 'sign' },
      sign: { stages: [{ participants: ['carol@example.com'] }] },
      execution: { stages: [{ participants: ['dave@example.com'] }] },
      dueDays: 5,
    },
  },
  {
    name: 'invoice',
    title: 'Incoming invoice',
    formsystype: 2,
    tags: { invoiceNo: 'string', total: 'string', supplier: 'string', items: 'table' },
    workflow: {
      approval: { stages: [{ participants: ['bob@example.com'] }], next: 'execution' },
      execution: { stages: [{ participants: ['dave@example.com'] }] },
      dueDays: 14,
    },
    recognition: {
      forms: [
        {
          id: 'inv',
          name: 'Invoice',
          match: ['invoice', 'total'],
          fields: {
            invoiceNo: 'Invoice\\s+(?:No|Number)\\.?:?\\s+(\\w[\\w-]*)',
            total: 'Total:?\\s+([0-9][0-9.,]*)',
          },
        },
        {
          id: 'dn',
          name: 'Delivery note',
          match: ['delivery', 'note'],
          fields: { supplier: 'Supplier:?\\s+(.+)' },
        },
      ],
    },
  },
  {
    name: 'contract',
    title: 'Contract',
    formsystype: 3,
    tags: { party: 'string', value: 'string' },
  },
];

/** Defines each sample form that does not exist yet; an existing form is left as it is. */
export async function seedSampleForms(store: EventStore): Promise<void> {
  const id = randomUUID();
  const metadata = commandMetadata(undefined, { requestId: id, correlationId: id });
  for (const definition of SAMPLE_FORMS) {
    await executeCommand(
      store,
      formStream(definition.name),
      formAggregate,
      (state) => (state.definition ? [] : [{ type: 'FormDefined', data: { definition } }]),
      metadata,
    );
  }
}
