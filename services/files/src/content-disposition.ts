/** The download's Content-Disposition (RFC 6266) with a UTF-8 `filename*` (RFC 5987) and an ASCII fallback. */

/** Percent-encodes everything outside RFC 5987's attr-char set (encodeURIComponent leaves `'()*` as they are). */
export function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** An ASCII-only quoted-string value: non-ASCII becomes `_`, quotes and backslashes are dropped. */
export function asciiFallback(fileName: string): string {
  return Array.from(fileName, (ch) => (/^[\x20-\x7e]$/.test(ch) ? ch : '_'))
    .join('')
    .replace(/["\\]/g, '');
}

/**
 * @example contentDisposition('Übersicht.pdf')
 * // attachment; filename="_bersicht.pdf"; filename*=UTF-8''%C3%9Cbersicht.pdf
 */
export function contentDisposition(fileName: string): string {
  return `attachment; filename="${asciiFallback(fileName)}"; filename*=UTF-8''${encodeRfc5987(fileName)}`;
}
