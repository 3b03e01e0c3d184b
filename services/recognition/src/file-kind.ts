/** What an attachment is, by its first bytes (its declared type and name only say what it claims to be). */

export type FileKind = 'pdf' | 'png' | 'jpeg' | 'tiff';

/** PDF readers accept the header anywhere in the first KiB, and so does this. */
const PDF_HEADER_WINDOW = 1024;

export function sniffFileKind(bytes: Uint8Array): FileKind | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return 'tiff';
  if (Buffer.from(bytes.subarray(0, PDF_HEADER_WINDOW)).includes('%PDF-')) return 'pdf';
  return undefined;
}

const BY_CONTENT_TYPE: Record<string, FileKind> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/tiff': 'tiff',
};
const BY_EXTENSION: Record<string, FileKind> = {
  pdf: 'pdf',
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  tif: 'tiff',
  tiff: 'tiff',
};

/** The kind a file claims by its content type, else by its name's extension. */
export function declaredFileKind(contentType?: string, fileName?: string): FileKind | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  const byType = type ? BY_CONTENT_TYPE[type] : undefined;
  if (byType) return byType;
  const ext = fileName?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  return ext ? BY_EXTENSION[ext] : undefined;
}
