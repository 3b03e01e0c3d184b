/** What a field type's parser finds in a line of text: the value normalised and where it stood. */
export interface ValueMatch {
  /** Normalised: `YYYY-MM-DD`, `1234.56`, `EUR`, an IBAN without spaces… */
  value: string;
  /** Character offsets in the text searched, end exclusive. */
  start: number;
  end: number;
  /** How surely the text is a value of the type, 0–1 (e.g. an amount without cents or currency is less sure). */
  quality: number;
}

/** Strips accents and lowercases: `Août` → `aout`, `März` → `marz`. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Every match of a global regular expression, without `matchAll`'s copy of it (a copy is compiled
 * again: for the long alternations of month names, on every call).
 */
export function* execAll(re: RegExp, text: string): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0] === '') re.lastIndex++;
    yield m;
  }
}
