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
