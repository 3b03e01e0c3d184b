import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findVatIds } from './vat-id';

describe('findVatIds: EU, UK, CH and NO VAT ids, normalised', () => {
  const cases: Array<[country: string, text: string, id: string | undefined]> = [
    ['de', 'USt-IdNr.: DE123456789', 'DE123456789'],
    ['de, grouped', 'USt-ID DE 123 456 789', 'DE123456789'],
    ['at', 'UID: ATU12345678', 'ATU12345678'],
    ['fr', 'TVA intracommunautaire : FR 40 303 265 045', 'FR40303265045'],
    ['nl', 'BTW-nummer NL123456789B01', 'NL123456789B01'],
    ['nl, dotted', 'Btw nr. NL 1234.56.789.B.01', 'NL123456789B01'],
    ['es', 'CIF/NIF: ESB12345678', 'ESB12345678'],
    ['be', 'TVA BE0123456789', 'BE0123456789'],
    ['it', 'P.IVA IT12345678901', 'IT12345678901'],
    ['gb', 'VAT Reg No: GB 123 4567 89', 'GB123456789'],
    ['ch', 'MWST-Nr. CHE-123.456.789 MWST', 'CHE123456789'],
    ['a German IBAN is no VAT id', 'DE89 3704 0044 0532 0130 00', undefined],
    ['too few digits', 'DE12345', undefined],
  ];
  for (const [country, text, id] of cases)
    it(`${country}: ${text} → ${id ?? 'none'}`, () => assert.equal(findVatIds(text)[0]?.value, id));
});
