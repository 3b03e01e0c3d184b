/**
 * Values a field finds with no label beside them, by what they are: the currency the part is written
 * in (its most frequent sign or code), the first IBAN (valid ones first) or VAT id, for a date the first
 * date of the first page (asked only for the form's first date field: the document's own date), and
 * for a party the letterhead: its sender line (below), else the first line on the first page with a
 * legal form, else its first line of words (no digits, no `key:`) that names no keyword of the form.
 * Each is less sure than a labelled value, except where the page itself confirms it:
 * - a currency that is the only one on the part and written there at least twice;
 * - a sender line (`ACME GmbH • Hauptstr. 1 • 12345 Stadt`, the return address printed above the
 *   recipient's in a window envelope's window, DIN 5008 and its kin) whose name stands again on
 *   another line of the part (the letterhead or the footer): it names the one who sends the document.
 * Pure.
 */
import { dominantCurrency, findCurrencies } from './fields/currency';
import { type DateHints, findDates } from './fields/date';
import { findIbans } from './fields/iban';
import { findParty, hasLegalForm } from './fields/party';
import type { ValueMatch } from './fields/value-match';
import { fold } from './fields/value-match';
import { findVatIds } from './fields/vat-id';
import { type TextLine, unionBox, wordConfidence, wordsIn } from './layout-text';
import type { Candidate } from './proximity';

/** How sure an unlabelled value is, before its own type quality. */
const SURENESS = {
  currency: 0.8,
  onlyCurrency: 0.95,
  iban: 0.9,
  vatId: 0.7,
  date: 0.5,
  senderLine: 0.85,
  senderLineRepeated: 0.95,
  partyWithLegalForm: 0.6,
  party: 0.35,
};
/** The separators of a sender line's parts (name, street, town). */
const SENDER_SEPARATOR = /\s+[•·|●▪◦∙]\s+/u;
/** A sender line: the name and at least two address parts, one of them with a number. */
const SENDER_MIN_PARTS = 3;
/** The letterhead: the top of the first page. */
const LETTERHEAD_LINES = 8;

export function unlabelledValue(
  type: string,
  pages: readonly (readonly TextLine[])[],
  keywords: readonly string[],
  hints: DateHints = {},
): Candidate | undefined {
  const lines = pages.flat();
  switch (type) {
    case 'date':
      for (const line of pages[0] ?? []) {
        const [m] = findDates(line.text, hints);
        if (m) return candidate(line, m, SURENESS.date);
      }
      return undefined;
    case 'currency': {
      const all = lines.flatMap((line) => findCurrencies(line.text).map((m) => ({ m, line })));
      const best = dominantCurrency(all.map((a) => a.m));
      const at = all.find((a) => a.m === best);
      const only = all.length >= 2 && all.every((a) => a.m.value === best?.value);
      return at && candidate(at.line, at.m, only ? SURENESS.onlyCurrency : SURENESS.currency);
    }
    case 'iban': {
      const all = lines.flatMap((line) => findIbans(line.text).map((m) => ({ m, line })));
      const at = all.find((a) => a.m.quality === 1) ?? all[0];
      return at && candidate(at.line, at.m, SURENESS.iban);
    }
    case 'vatId':
      for (const line of lines) {
        const [m] = findVatIds(line.text);
        if (m) return candidate(line, m, SURENESS.vatId);
      }
      return undefined;
    case 'party':
      return senderLine(pages[0] ?? [], lines) ?? letterhead(pages[0] ?? [], keywords);
    default:
      return undefined;
  }
}

/** The name of the letterhead's sender line, surer when it stands again on another line of the part. */
function senderLine(page: readonly TextLine[], all: readonly TextLine[]): Candidate | undefined {
  for (const line of page.slice(0, LETTERHEAD_LINES)) {
    const parts = line.text.split(SENDER_SEPARATOR);
    if (parts.length < SENDER_MIN_PARTS || !parts.slice(1).some((p) => /\d/.test(p))) continue;
    const [m] = findParty(parts[0]!);
    if (!m) continue;
    const name = fold(m.value);
    const repeated = all.some((l) => l !== line && fold(l.text).includes(name));
    return candidate(line, m, repeated ? SURENESS.senderLineRepeated : SURENESS.senderLine);
  }
  return undefined;
}

function letterhead(page: readonly TextLine[], keywords: readonly string[]): Candidate | undefined {
  const top = page.slice(0, LETTERHEAD_LINES);
  const legal = top.find((l) => hasLegalForm(l.text));
  if (legal) {
    const [m] = findParty(legal.text);
    if (m) return candidate(legal, m, SURENESS.partyWithLegalForm);
  }
  const folded = keywords.map(fold);
  const named = top.find(
    (l) => /\p{L}{3}/u.test(l.text) && !/[\d:]/.test(l.text) && !folded.some((k) => fold(l.text).includes(k)),
  );
  const [m] = named ? findParty(named.text) : [];
  return named && m ? candidate(named, m, SURENESS.party) : undefined;
}

function candidate(line: TextLine, m: ValueMatch, sureness: number): Candidate {
  const words = wordsIn(line, m.start, m.end);
  return {
    value: m.value,
    raw: line.text.slice(m.start, m.end),
    pageIdx: line.pageIdx,
    box: unionBox(words),
    quality: m.quality * sureness,
    wordConfidence: wordConfidence(words),
    order: [line.pageIdx, line.lineIdx, m.start],
  };
}
