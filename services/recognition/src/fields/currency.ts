/**
 * Currencies as ISO 4217 codes from codes, symbols and words: `EUR`, `€`, `euro`, `$`, `US$`, `£`,
 * `CHF`, `Fr.`, `kr`, `zł`, `RM`… Pure. A code counts only as a whole upper-case word (`eur` in running text
 * does not); a symbol anywhere.
 */
import { execAll, fold, type ValueMatch } from './value-match';

/** Common ISO 4217 codes read as they are. */
const CODES = new Set(
  'EUR USD GBP CHF JPY CNY SEK NOK DKK ISK PLN CZK HUF RON BGN HRK RSD TRY RUB UAH AUD NZD CAD MXN BRL ARS CLP COP PEN INR IDR MYR SGD HKD THB VND PHP KRW TWD ZAR NGN KES EGP MAD AED SAR QAR ILS'.split(
    ' ',
  ),
);

const CODE = /(?<![\p{L}\p{N}])[A-Z]{3}(?![\p{L}\p{N}])/gu;
const RINGGIT = /(?<![\p{L}\p{N}])RM(?![\p{L}])/gu;

/** Symbols and words (folded: lower case, no accents) → code, with how surely they name it. */
const SIGNS: ReadonlyArray<[sign: string, code: string, quality: number]> = [
  ['us$', 'USD', 1],
  ['a$', 'AUD', 1],
  ['c$', 'CAD', 1],
  ['r$', 'BRL', 1],
  ['€', 'EUR', 1],
  ['£', 'GBP', 1],
  ['¥', 'JPY', 0.8],
  ['₹', 'INR', 1],
  ['₽', 'RUB', 1],
  ['₺', 'TRY', 1],
  ['zł', 'PLN', 1],
  ['kč', 'CZK', 1],
  ['$', 'USD', 0.8],
];
const WORDS: ReadonlyArray<[word: string, code: string, quality: number]> = [
  ['euros', 'EUR', 1],
  ['euro', 'EUR', 1],
  ['us dollars', 'USD', 1],
  ['dollars', 'USD', 0.8],
  ['dollar', 'USD', 0.8],
  ['pounds sterling', 'GBP', 1],
  ['sterling', 'GBP', 1],
  ['pounds', 'GBP', 0.8],
  ['sfr.', 'CHF', 1],
  ['fr.', 'CHF', 0.8],
  ['franken', 'CHF', 0.9],
  ['francs suisses', 'CHF', 1],
  ['yen', 'JPY', 1],
  ['kr.', 'DKK', 0.6],
  ['kr', 'SEK', 0.5],
  ['ft', 'HUF', 0.6],
  ['lei', 'RON', 0.8],
];

export function findCurrencies(text: string): ValueMatch[] {
  const found: ValueMatch[] = [];
  for (const m of execAll(CODE, text))
    if (CODES.has(m[0])) found.push({ value: m[0], start: m.index!, end: m.index! + 3, quality: 1 });
  // Ringgit as Malaysian receipts write it, upper case only.
  for (const m of execAll(RINGGIT, text))
    found.push({ value: 'MYR', start: m.index!, end: m.index! + 2, quality: 0.9 });
  // Folding keeps the length of these signs and words, so offsets stay those of `text`.
  const folded = text.toLowerCase();
  const taken = (at: number) => found.some((f) => at >= f.start && at < f.end);
  for (const [sign, code, quality] of SIGNS)
    for (let at = folded.indexOf(sign); at >= 0; at = folded.indexOf(sign, at + sign.length)) {
      // `$` inside `US$` is that sign's; a letter before a symbol-only sign is fine (`€12`).
      if (taken(at) || (sign.length > 1 && /\p{L}/u.test(folded[at - 1] ?? ''))) continue;
      found.push({ value: code, start: at, end: at + sign.length, quality });
    }
  const words = fold(text);
  for (const [word, code, quality] of WORDS)
    for (let at = words.indexOf(word); at >= 0; at = words.indexOf(word, at + word.length)) {
      const end = at + word.length;
      const bounded = !/[\p{L}\p{N}]/u.test(words[at - 1] ?? '') && !/[\p{L}]/u.test(words[end] ?? '');
      if (bounded && !taken(at) && words.length === text.length)
        found.push({ value: code, start: at, end, quality });
    }
  return found.sort((a, b) => a.start - b.start);
}

/** The currency a part is written in: the code most often found, by total quality; undefined if none. */
export function dominantCurrency(matches: readonly ValueMatch[]): ValueMatch | undefined {
  const weight = new Map<string, number>();
  for (const m of matches) weight.set(m.value, (weight.get(m.value) ?? 0) + m.quality);
  let best: ValueMatch | undefined;
  for (const m of matches) if (!best || weight.get(m.value)! > weight.get(best.value)!) best = m;
  return best;
}
