/**
 * IBANs (ISO 13616): country code, two check digits, the country's fixed length, checked by mod 97
 * (the number with its first four characters moved to the end, letters as 10–35, leaves 1). Pure.
 * An IBAN-shaped value whose check fails is still found, at a lower quality: OCR may have misread one
 * character, and a validator should see it rather than nothing.
 */
import { execAll, type ValueMatch } from './value-match';

/** Lengths of the IBAN registry (SWIFT, ISO 13616) for the countries that use one. */
const LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
};
/** Where an IBAN may start: country, check digits, then letters/digits in groups of any spacing. */
const START = /(?<![A-Z0-9])([A-Z]{2})\s?(\d{2})/g;

export function ibanChecksumValid(iban: string): boolean {
  const s = iban.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(s) || LENGTHS[s.slice(0, 2)] !== s.length) return false;
  let rest = 0;
  for (const ch of s.slice(4) + s.slice(0, 4)) {
    const n = ch >= 'A' ? ch.charCodeAt(0) - 55 : Number(ch);
    rest = (rest * (n >= 10 ? 100 : 10) + n) % 97;
  }
  return rest === 1;
}

export function findIbans(text: string): ValueMatch[] {
  const found: ValueMatch[] = [];
  const upper = text.toUpperCase();
  for (const m of execAll(START, upper)) {
    const length = LENGTHS[m[1]!];
    if (!length || found.some((f) => m.index! < f.end)) continue;
    // Take the country's length of letters and digits, skipping the spaces that group them.
    let iban = '';
    let end = m.index!;
    while (end < upper.length && iban.length < length) {
      const ch = upper[end]!;
      if (/[A-Z0-9]/.test(ch)) iban += ch;
      else if (ch !== ' ' || !/[A-Z0-9]/.test(upper[end + 1] ?? '')) break;
      end++;
    }
    if (iban.length !== length || /[A-Z0-9]/.test(upper[end] ?? '')) continue;
    const valid = ibanChecksumValid(iban);
    found.push({ value: iban, start: m.index!, end, quality: valid ? 1 : 0.6 });
  }
  return found;
}
