/**
 * The sample forms that exist after the first start (DESIGN.md, "Forms"): the document service defines
 * them; the recognition service's tests recognise pages of the sample `invoice`.
 */
import type { FormDefinition } from './forms';
import { INVOICE_FIELDS, INVOICE_KEYWORDS } from './sample-invoice';

export const SAMPLE_FORMS: FormDefinition[] = [
  {
    name: 'memo',
    title: 'Internal memo',
    formsystype: 1,
    tags: { subject: 'string', body: 'string', lines: 'table' },
    titleField: 'subject',
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
    tags: {
      invoiceNo: 'string',
      total: 'string',
      supplier: 'string',
      items: 'table',
      invoiceDate: 'string',
      dueDate: 'string',
      currency: 'string',
      subtotal: 'string',
      tax: 'string',
      vatId: 'string',
      iban: 'string',
    },
    titleField: 'invoiceNo',
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
          match: INVOICE_KEYWORDS,
          // Prebuilt: any supplier's invoice, by field types and labels (sample-invoice.ts).
          fields: INVOICE_FIELDS,
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
    titleField: 'party',
  },
];
