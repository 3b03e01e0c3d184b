/** The sample `invoice` form the project ships: the form definition the tests recognise. */
import { type FormDefinition, SAMPLE_FORMS } from '@docflow/contracts';

export const INVOICE_FORM: FormDefinition = SAMPLE_FORMS.find((f) => f.name === 'invoice')!;
export const RECO_FORMS = INVOICE_FORM.recognition!.forms;

export const INVOICE_LINES = [
  { text: 'INVOICE', size: 28 },
  { text: 'ACME GmbH, Hauptstrasse 1, 10115 Berlin' },
  { text: 'Invoice No. INV-2026-001' },
  { text: 'Date: 2026-03-14' },
  { text: 'Total: 1,234.50' },
];

export const DELIVERY_NOTE_LINES = [
  { text: 'DELIVERY NOTE', size: 28 },
  { text: 'Supplier: ACME GmbH' },
  { text: 'Delivered on 2026-03-15, 3 pallets' },
];
