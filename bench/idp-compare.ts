/**
 * Whether a recognised value is the labelled one: both sides are normalised the same way, so that
 * formatting (`05.11.2017` for 2017-11-05, `1.005,55 €` for 1005.55, `€` for EUR, `DE 123 456 789`,
 * `Au bon moulin SARL` for "Au bon moulin") never counts as a miss. Pure.
 *
 * - Dates: ISO, `D.M.Y`, `D/M/Y`, `D-M-Y` (two- or four-digit years), `YYYYMMDD`, and month names in
 *   English, German, French and Dutch (`11. Juli 2014`, `August 3 , 2014`, `05 MAR 2018`). A numeric date
 *   whose day and month could be swapped (`11/03/2017`) matches either reading: which one a document
 *   means is its locale's convention, not a reading error.
 * - Amounts: the last number in the value, `.` or `,` as the decimal mark (the last of the two when both
 *   appear; a lone one before exactly three digits groups thousands), compared to the cent.
 * - Currencies: ISO codes, symbols and names.
 * - Ids (invoiceNo, vatId, iban): case, spaces, dots and dashes between groups ignored for VAT ids and
 *   IBANs; spaces only for invoice numbers.
 * - Parties (supplier): case, accents, punctuation and a trailing legal form (GmbH, SARL, Ltd, Sdn Bhd,
 *   ...) ignored.
 */
import type { Expected, Field } from './idp-labels';

const MONTHS: Array<[prefix: string, month: number]> = [
  ['jan', 1],
  ['feb', 2],
  ['fév', 2],
  ['fev', 2],
  ['mär', 3],
  ['maa', 3],
  ['mar', 3],
  ['apr', 4],
  ['avr', 4],
  ['may', 5],
  ['mai', 5],
  ['mei', 5],
  ['juin', 6],
  ['juil', 7],
  ['jun', 6],
  ['jul', 7],
  ['aug', 8],
  ['aoû', 8],
  ['aou', 8],
  ['sep', 9],
  ['oct', 10],
  ['okt', 10],
  ['nov', 11],
  ['dec', 12],
  ['dez', 12],
  ['déc', 12],
];

const LEGAL_FORMS =
  /\b(gmbh(\s*&\s*co\.?\s*kg)?|ag|kg|se|e\.?\s?k\.?|sarl|sas|sa|ltd|limited|inc|llc|plc|b\.?v|n\.?v|sdn\.?\s*bhd|s\/b|bhd|co)\.?$/;

const CURRENCIES: Record<string, string> = {
  '€': 'EUR',
  eur: 'EUR',
  euro: 'EUR',
  euros: 'EUR',
  $: 'USD',
  usd: 'USD',
  '£': 'GBP',
  gbp: 'GBP',
  chf: 'CHF',
  rm: 'MYR',
  myr: 'MYR',
};

function iso(y: number, m: number, d: number): string | undefined {
  const year = y < 100 ? 2000 + y : y;
  const date = new Date(Date.UTC(year, m - 1, d));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return undefined;
  return date.toISOString().slice(0, 10);
}

function monthOf(word: string): number | undefined {
  const w = word.toLowerCase();
  return MONTHS.find(([prefix]) => w.startsWith(prefix))?.[1];
}

/** Every ISO date a written date can mean (empty when it is no date). */
export function dateReadings(value: string): string[] {
  const v = value.trim();
  const out = new Set<string | undefined>();
  let m = v.match(/(\d{4})[-./](\d{1,2})[-./](\d{1,2})/);
  if (m) out.add(iso(+m[1]!, +m[2]!, +m[3]!));
  m = v.match(/\b(\d{4})(\d{2})(\d{2})\b/);
  if (m) out.add(iso(+m[1]!, +m[2]!, +m[3]!));
  m = v.match(/\b(\d{1,2})[-./](\d{1,2})[-./](\d{4}|\d{2})\b/);
  if (m) {
    out.add(iso(+m[3]!, +m[2]!, +m[1]!));
    out.add(iso(+m[3]!, +m[1]!, +m[2]!));
  }
  m = v.match(/\b(\d{1,2})\.?\s*([A-Za-zÀ-ÿ]{3,})\.?\s*(\d{4}|\d{2})\b/);
  if (m && monthOf(m[2]!)) out.add(iso(+m[3]!, monthOf(m[2]!)!, +m[1]!));
  m = v.match(/\b([A-Za-zÀ-ÿ]{3,})\.?\s*(\d{1,2})\s*,?\s*(\d{4})\b/);
  if (m && monthOf(m[1]!)) out.add(iso(+m[3]!, monthOf(m[1]!)!, +m[2]!));
  out.delete(undefined);
  return [...out] as string[];
}

/** An amount as a plain decimal with two places, or undefined. */
export function amount(value: string): string | undefined {
  const numbers = value.match(/\d[\d.,' \u00a0\u202f]*\d|\d/g);
  if (!numbers) return undefined;
  const n = numbers.at(-1)!.replace(/[' \u00a0\u202f]/g, '');
  const mark = Math.max(n.lastIndexOf('.'), n.lastIndexOf(','));
  const marks = n.match(/[.,]/g) ?? [];
  // One kind of mark, repeated or before exactly three digits: it groups thousands.
  const grouping =
    marks.length > 0 && marks.every((c) => c === marks[0]) && (marks.length > 1 || n.length - mark - 1 === 3);
  const plain =
    mark < 0 || grouping
      ? n.replace(/[.,]/g, '')
      : `${n.slice(0, mark).replace(/[.,]/g, '')}.${n.slice(mark + 1)}`;
  const parsed = Number(plain);
  return Number.isFinite(parsed) ? parsed.toFixed(2) : undefined;
}

export function currency(value: string): string | undefined {
  const v = value.trim().toLowerCase();
  if (CURRENCIES[v]) return CURRENCIES[v];
  return /^[a-z]{3}$/.test(v) ? v.toUpperCase() : undefined;
}

export function party(value: string): string {
  let v = value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
  // A legal form may be written with a comma before it ("Acme, Inc.").
  for (let previous = ''; previous !== v; ) {
    previous = v;
    v = v.replace(LEGAL_FORMS, '').replace(/[\s,.]+$/, '');
  }
  return v.replace(/[^\p{L}\p{N}]/gu, '');
}

/** Whether `actual` (as recognition returned it) is the labelled value of `field`. */
export function sameValue(field: Field, expected: string, actual: string): boolean {
  switch (field) {
    case 'invoiceDate':
    case 'dueDate':
      return dateReadings(actual).includes(expected);
    case 'total':
      return amount(actual) === expected;
    case 'currency':
      return currency(actual) === expected;
    case 'supplier':
      return party(actual) !== '' && party(actual) === party(expected);
    case 'invoiceNo':
      return actual.replace(/\s+/g, '').toUpperCase() === expected.replace(/\s+/g, '').toUpperCase();
    case 'vatId':
    case 'iban':
      return actual.replace(/[\s.-]+/g, '').toUpperCase() === expected;
  }
}

/** Each labelled field of a document: right, or missed (absent or another value). */
export function scoreDocument(
  expected: Expected,
  actual: Partial<Record<Field, string>>,
): Array<{ field: Field; right: boolean; expected: string; actual: string | undefined }> {
  return (Object.entries(expected) as Array<[Field, string]>).map(([field, value]) => ({
    field,
    expected: value,
    actual: actual[field],
    right: actual[field] !== undefined && sameValue(field, value, actual[field]!),
  }));
}
