/**
 * VAT identification numbers of the EU member states, the UK, Switzerland and Norway, normalised
 * without spaces, dots or dashes (`DE 123 456 789` → `DE123456789`, `CHE-123.456.789 MWST` →
 * `CHE123456789`). Pure. The shape is each country's; check digits are not computed.
 */
import type { ValueMatch } from './value-match';

const SHAPES: Record<string, RegExp> = {
  AT: /^ATU\d{8}$/,
  BE: /^BE[01]\d{9}$/,
  BG: /^BG\d{9,10}$/,
  CY: /^CY\d{8}[A-Z]$/,
  CZ: /^CZ\d{8,10}$/,
  DE: /^DE\d{9}$/,
  DK: /^DK\d{8}$/,
  EE: /^EE\d{9}$/,
  EL: /^EL\d{9}$/,
  ES: /^ES[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^FI\d{8}$/,
  FR: /^FR[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^HR\d{11}$/,
  HU: /^HU\d{8}$/,
  IE: /^IE\d[A-Z0-9+*]\d{5}[A-Z]{1,2}$/,
  IT: /^IT\d{11}$/,
  LT: /^LT(\d{9}|\d{12})$/,
  LU: /^LU\d{8}$/,
  LV: /^LV\d{11}$/,
  MT: /^MT\d{8}$/,
  NL: /^NL\d{9}B\d{2}$/,
  PL: /^PL\d{10}$/,
  PT: /^PT\d{9}$/,
  RO: /^RO\d{2,10}$/,
  SE: /^SE\d{12}$/,
  SI: /^SI\d{8}$/,
  SK: /^SK\d{10}$/,
  GB: /^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  XI: /^XI\d{9}$/,
  CH: /^CHE\d{9}$/,
  NO: /^NO\d{9}(MVA)?$/,
};
/** A country prefix, then digits and letters that spaces, dots and dashes may group. */
const CANDIDATE =
  /(?<![\p{L}\p{N}])(?:[A-Z]{2}|CHE)[ .-]?[0-9A-Z](?:[ .-]?[0-9A-Z+*]){6,13}(?![\p{L}\p{N}])/gu;

export function findVatIds(text: string): ValueMatch[] {
  const found: ValueMatch[] = [];
  const upper = text.toUpperCase();
  CANDIDATE.lastIndex = 0;
  for (let m = CANDIDATE.exec(upper); m; m = CANDIDATE.exec(upper)) {
    // Candidates may overlap (`TVA BE0123…`, `ID DE 123…`): the next one starts a character on.
    CANDIDATE.lastIndex = m.index + 1;
    if (found.some((f) => m!.index < f.end)) continue;
    const raw = m[0];
    const value = raw.replace(/[ .-]/g, '');
    const shape = SHAPES[value.startsWith('CHE') ? 'CH' : value.slice(0, 2)];
    // Trailing words of the same group (`… MWST`) are cut off by the shape; try the longest fit.
    const fit = shape && longestFit(raw, shape);
    if (fit) found.push({ value: fit.value, start: m.index!, end: m.index! + fit.length, quality: 1 });
  }
  return found;
}

function longestFit(raw: string, shape: RegExp): { value: string; length: number } | undefined {
  for (let length = raw.length; length > 0; length--) {
    const value = raw.slice(0, length).replace(/[ .-]/g, '');
    // What the shape leaves may be a word (`MWST`), not more digits (the rest of an IBAN).
    if (shape.test(value) && /[0-9A-Z]/.test(raw[length - 1]!) && !/\d/.test(raw.slice(length)))
      return { value, length };
  }
  return undefined;
}
