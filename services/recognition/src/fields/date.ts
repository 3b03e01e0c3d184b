/**
 * Dates in the common written forms, as ISO `YYYY-MM-DD`: `2024-08-03`, `03.08.2024`, `3/8/2024`,
 * `3. März 2024`, `3 août 2024`, `August 3 , 2014`, `3 de agosto de 2024`, `03-Aug-24`… Pure.
 *
 * Numeric day and month: a part above 12 is the day; when both are ≤ 12 the order is the part's hint
 * (`monthFirst`, e.g. a US document), day first otherwise (most of the world). Two-digit years are
 * 19xx from 70 on, 20xx below. Impossible dates (`31.02.2024`) are none.
 */
import { execAll, fold, type ValueMatch } from './value-match';

export interface DateHints {
  /** Read `3/8/2024` as March 8 (US order) when both parts could be the month. */
  monthFirst?: boolean;
}

/** Month names and abbreviations (folded) of EN, DE, FR, NL, ES, IT, PT → month number. */
const MONTHS: Record<string, number> = {};
const NAMES: string[][] = [
  [
    'january',
    'jan',
    'januar',
    'janvier',
    'janv',
    'januari',
    'enero',
    'ene',
    'gennaio',
    'gen',
    'janeiro',
    'jänner',
    'janner',
  ],
  ['february', 'feb', 'februar', 'fevrier', 'fevr', 'fev', 'februari', 'febrero', 'febbraio', 'fevereiro'],
  ['march', 'mar', 'marz', 'maerz', 'mars', 'maart', 'mrt', 'marzo', 'marco'],
  ['april', 'apr', 'avril', 'avr', 'abril', 'abr', 'aprile'],
  ['may', 'mai', 'mei', 'mayo', 'maggio', 'mag', 'maio'],
  ['june', 'jun', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho'],
  ['july', 'jul', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julho'],
  ['august', 'aug', 'aout', 'augustus', 'agosto', 'ago'],
  ['september', 'sep', 'sept', 'septembre', 'septiembre', 'settembre', 'set', 'setembro'],
  ['october', 'oct', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro', 'out'],
  ['november', 'nov', 'novembre', 'noviembre', 'novembro'],
  ['december', 'dec', 'dezember', 'dez', 'decembre', 'diciembre', 'dic', 'dicembre', 'dezembro'],
];
for (const [i, names] of NAMES.entries()) for (const n of names) MONTHS[n] = i + 1;
const MONTH = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');

const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';
const ORD = '(?:st|nd|rd|th|er|e|º|°)?';
const FORMS: ReadonlyArray<[RegExp, (g: string[]) => [y: string, m: number, d: string] | null, number]> = [
  // 2024-08-03, 2024/8/3, 2024.08.03
  [
    new RegExp(`${B}(\\d{4})([-/.])(\\d{1,2})\\2(\\d{1,2})${E}`, 'gu'),
    (g) => [g[1]!, Number(g[3]), g[4]!],
    1,
  ],
  // 03.08.2024, 3/8/24, 03-08-2024 (day or month first: resolved below)
  [
    new RegExp(`${B}(\\d{1,2})\\s?([-/.])\\s?(\\d{1,2})\\s?\\2\\s?(\\d{4}|\\d{2})${E}(?![.,]\\d)`, 'gu'),
    () => null,
    1,
  ],
  // 3. März 2024, 3 août 2024, 03-Aug-2024, 3 de agosto de 2024, 3rd of August 2024
  [
    new RegExp(
      `${B}(\\d{1,2})${ORD}\\.?[\\s\\-/]*(?:de\\s+|of\\s+)?(${MONTH})\\.?[\\s\\-/,]*(?:de\\s+)?(\\d{4}|\\d{2})${E}`,
      'gu',
    ),
    (g) => [g[3]!, MONTHS[g[2]!]!, g[1]!],
    1,
  ],
  // August 3, 2024 · August 3 , 2014 · Aug. 3rd 2024
  [
    new RegExp(`${B}(${MONTH})\\.?\\s*(\\d{1,2})${ORD}\\s*,?\\s*(\\d{4})${E}`, 'gu'),
    (g) => [g[3]!, MONTHS[g[1]!]!, g[2]!],
    1,
  ],
];

const SLASHED = /(?<!\d)(\d{1,2})\/(\d{1,2})\/(?:\d{4}|\d{2})(?!\d)/g;

export function findDates(text: string, hints: DateHints = {}): ValueMatch[] {
  // Folding keeps offsets only when it keeps the length (it does for Latin letters with accents).
  const folded = fold(text);
  const source = folded.length === text.length ? folded : text.toLowerCase();
  const found: ValueMatch[] = [];
  for (const [re, parts, quality] of FORMS)
    for (const m of execAll(re, source)) {
      const start = m.index!;
      const end = start + m[0].length;
      if (found.some((f) => start < f.end && end > f.start)) continue;
      const ymd = parts(m) ?? numericParts(m, hints);
      const iso = ymd && isoDate(...ymd);
      if (iso) found.push({ value: iso, start, end, quality });
    }
  return found.sort((a, b) => a.start - b.start);
}

/** Day and month of `03.08.2024` or `8/3/2024`: the part above 12 is the day, else the hint decides. */
function numericParts(m: RegExpMatchArray, hints: DateHints): [string, number, string] {
  const a = Number(m[1]);
  const b = Number(m[3]);
  const monthFirst = a > 12 ? false : b > 12 ? true : (hints.monthFirst ?? false);
  return monthFirst ? [m[4]!, a, m[3]!] : [m[4]!, b, m[1]!];
}

function isoDate(year: string, month: number, day: string): string | null {
  let y = Number(year);
  if (year.length === 2) y += y >= 70 ? 1900 : 2000;
  const d = Number(day);
  if (y < 1900 || y > 2100 || month < 1 || month > 12 || d < 1) return null;
  if (d > new Date(Date.UTC(y, month, 0)).getUTCDate()) return null;
  return `${y}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * Whether a part's numeric dates are written month first: a date with its first part above 12 says
 * no, one with its second above 12 says yes; else a `$`/USD document says yes.
 */
export function monthFirstHint(text: string, usDollars: boolean): boolean {
  for (const m of execAll(SLASHED, text)) {
    if (Number(m[1]) > 12) return false;
    if (Number(m[2]) > 12) return true;
  }
  return usDollars;
}
