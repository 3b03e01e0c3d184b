/** The headers that describe an upload: the percent-encoded file name and the file's media type. */
import { FILE_NAME_HEADER } from '@docflow/contracts';
import { problems } from '@docflow/kit/http';

export { FILE_NAME_HEADER };
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

const MAX_FILE_NAME_CHARS = 255;
const MAX_CONTENT_TYPE_LENGTH = 255;
// The encoded name is ASCII; raw UTF-8 here would arrive as Latin-1 mojibake.
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
// \p{Cc}: C0 controls, DEL and C1 controls.
const FORBIDDEN_IN_NAME = /[/\\\p{Cc}]/u;
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"[^"\\\\\\r\\n]*"))*$`);

/** Decodes and checks the `x-docflow-file-name` header; 400 when it is not a usable plain file name. */
export function parseFileName(header: string | undefined): string {
  if (header === undefined || header === '')
    throw problems.badRequest(`the ${FILE_NAME_HEADER} header is required`);
  if (!PRINTABLE_ASCII.test(header))
    throw problems.badRequest(`the ${FILE_NAME_HEADER} header must be percent-encoded UTF-8`);
  let name: string;
  try {
    name = decodeURIComponent(header);
  } catch {
    throw problems.badRequest(`the ${FILE_NAME_HEADER} header is not valid percent-encoded UTF-8`);
  }
  if (name === '.' || name === '..') throw problems.badRequest('the file name must not be . or ..');
  if ([...name].length > MAX_FILE_NAME_CHARS)
    throw problems.badRequest(`the file name is longer than ${MAX_FILE_NAME_CHARS} characters`);
  if (FORBIDDEN_IN_NAME.test(name))
    throw problems.badRequest('the file name contains a slash, a backslash or a control character');
  return name;
}

/** The file's media type from `content-type`, octet-stream when absent; 400 when malformed. */
export function parseContentType(header: string | undefined): string {
  const value = header?.trim();
  if (!value) return DEFAULT_CONTENT_TYPE;
  if (value.length > MAX_CONTENT_TYPE_LENGTH || !MEDIA_TYPE.test(value))
    throw problems.badRequest('the content-type header is not a media type');
  return value;
}
