/**
 * Recognition forms with pattern fields only, as the sample `invoice` had them before its prebuilt
 * typed form (issue 34): what the tests of pattern classification and extraction read.
 */
import type { RecoFormDef } from '../reco-form';

export const PATTERN_FORMS: RecoFormDef[] = [
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
];
