/** The OCR languages this build installs: the one list the create request is checked against and the
 * recognition service installs trained data for (its language table is typed by it). */
export const OCR_LANGUAGES = ['eng'] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];

export const isOcrLanguage = (code: string): code is OcrLanguage =>
  (OCR_LANGUAGES as readonly string[]).includes(code);

/** Why `idpLangs` (`eng`, `eng+deu`, ...) cannot be served, naming each code that is not installed; undefined when all are. */
export function ocrLanguagesNotInstalled(idpLangs: string): string | undefined {
  const missing = [...new Set(idpLangs.split('+').map((c) => c.trim()))].filter((c) => !isOcrLanguage(c));
  if (missing.length === 0) return undefined;
  return `OCR language(s) not installed: ${missing.join(', ')}; installed: ${OCR_LANGUAGES.join(', ')}`;
}
