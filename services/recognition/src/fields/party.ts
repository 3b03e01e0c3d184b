/**
 * A party (supplier, customer): a name after its label, or, with no label, the line of the letterhead
 * that carries a legal form (`GmbH`, `Ltd`, `B.V.`, `S.A.`, `SARL`…). Pure. A name with a legal form
 * is surer than one without.
 */
import { findText } from './text';
import type { ValueMatch } from './value-match';

const LEGAL_FORM =
  /(?<![\p{L}])(?:gmbh(?:\s*&\s*co\.?\s*kg)?|ag|kg|ug|e\.k\.|ohg|ltd\.?|limited|llc|inc\.?|corp\.?|co\.|plc|llp|b\.?v\.?|n\.?v\.?|v\.?o\.?f\.?|s\.?a\.?s?\.?|s\.?l\.?|s\.?r\.?l\.?|sarl|sàrl|eurl|sas|sasu|s\.?p\.?a\.?|a\/s|aps|ab|oy|as|sp\. z o\.o\.|s\.r\.o\.|kft\.?|bvba|sprl)(?![\p{L}])/iu;

export function hasLegalForm(text: string): boolean {
  return LEGAL_FORM.test(text);
}

/** `Name:` before a name is part of no name. */
const NAME_KEY = /^(?:name|nom|naam|nombre|firma|company|société|bedrijf|empresa)\s*:\s*/iu;

/**
 * A name after a label: the rest of the line up to a comma that starts an address. Another label's
 * line (`Nummer: 549910`) is no name.
 */
export function findParty(text: string): ValueMatch[] {
  const [line] = findText(text);
  const key = line && NAME_KEY.exec(line.value);
  const rest = key
    ? { ...line, value: line.value.slice(key[0].length), start: line.start + key[0].length }
    : line;
  if (!rest || !/\p{L}{2}/u.test(rest.value) || rest.value.includes(':')) return [];
  const legal = LEGAL_FORM.exec(rest.value);
  // `ACME GmbH, Hauptstrasse 1`: the name ends with its legal form.
  const value = legal ? rest.value.slice(0, legal.index + legal[0].length) : rest.value.split(/,\s/)[0]!;
  // A legal form alone (`GmbH` after a label that is itself the start of the name) names no one.
  if (legal && !/\p{L}{2}/u.test(value.slice(0, legal.index))) return [];
  return [{ value, start: rest.start, end: rest.start + value.length, quality: legal ? 1 : 0.8 }];
}
