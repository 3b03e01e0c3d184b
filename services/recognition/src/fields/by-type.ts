/** The parser of each scalar field type: the values of that type in a piece of text. Pure. */
import type { FieldType } from '@docflow/contracts';
import { findAmounts } from './amount';
import { findCurrencies } from './currency';
import { type DateHints, findDates } from './date';
import { findIbans } from './iban';
import { findIds } from './id';
import { findParty } from './party';
import { findText } from './text';
import type { ValueMatch } from './value-match';
import { findVatIds } from './vat-id';

export type ScalarType = Exclude<FieldType, 'table' | 'pattern'>;

export function findByType(type: ScalarType, text: string, hints: DateHints = {}): ValueMatch[] {
  switch (type) {
    case 'date':
      return findDates(text, hints);
    case 'amount':
      return findAmounts(text);
    case 'currency':
      return findCurrencies(text);
    case 'id':
      return findIds(text);
    case 'text':
      return findText(text);
    case 'party':
      return findParty(text);
    case 'iban':
      return findIbans(text);
    case 'vatId':
      return findVatIds(text);
  }
}
