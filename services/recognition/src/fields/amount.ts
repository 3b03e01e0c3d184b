/**
 * Amounts in the ways invoices write them, as plain decimals with `.`: `1.234,56`, `1,234.56`,
 * `1 234,56`, `1'234.56`, `€ 12`, `12,-`, `-5.00`. Pure.
 *
 * Decimal or grouping separator: the last of `.` and `,` followed by one or two digits is the decimal
 * separator; one followed by groups of exactly three digits groups thousands (`1.234` is 1234, as
 * invoices write no third decimal). A number touching a letter, a `%` or a further digit group (a date,
 * `19%`, `INV-2024`) is no amount.
 */
import { execAll, type ValueMatch } from './value-match';

/** Integer part (grouped by one separator kind, or not), then a 1–2 digit fraction or a dash. */
const AMOUNT =
  /(?<![\p{L}\p{N}.,/-])(-|−)?\s?((?:[1-9]\d{0,2}(?:([.,'’\u00a0\u202f ])\d{3})(?:\3\d{3})*)|\d+)(?:([.,])(\d{1,2})|[.,]-{1,2})?(?![\p{L}\p{N}%]|[.,/-]\d|-\d)/gu;
const CURRENCY_NEAR = /(?:[€$£¥₹₽₺]|\b(?:EUR|USD|GBP|CHF|[A-Z]{3})\b)/u;

export function findAmounts(text: string): ValueMatch[] {
  const found: ValueMatch[] = [];
  for (const m of execAll(AMOUNT, text)) {
    const [raw, minus, int, group, decimal, fraction] = m;
    // A grouping character that is also the decimal one (`1,234,5`) is not an amount.
    if (group && decimal && (group === decimal || ![',', '.'].includes(decimal))) continue;
    const whole = int!.replace(/[^0-9]/g, '');
    const value = `${minus ? '-' : ''}${stripZeros(whole)}${fraction ? `.${fraction.padEnd(2, '0')}` : ''}`;
    const start = m.index! + (raw.length - raw.trimStart().length);
    const around = text.slice(Math.max(0, start - 4), start + raw.length + 4);
    // Cents or a currency beside it: surely money; a bare integer may be a quantity or a year.
    const quality = fraction ? 1 : CURRENCY_NEAR.test(around) || raw.includes('-', 1) ? 0.9 : 0.6;
    found.push({ value, start, end: m.index! + raw.length, quality });
  }
  return found;
}

/** One amount that is the whole of `text` (a table cell), normalised, or undefined. */
export function parseAmount(text: string): string | undefined {
  const trimmed = text.trim().replace(/^[€$£¥₹]\s?|\s?[€$£¥₹]$/u, '');
  const [first] = findAmounts(trimmed);
  return first && first.start === 0 && first.end === trimmed.length ? first.value : undefined;
}

function stripZeros(digits: string): string {
  return digits.replace(/^0+(?=\d)/, '');
}
