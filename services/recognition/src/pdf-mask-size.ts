/**
 * The declared size of the masks of a PDF's images (issue 29): pdf.js refuses an image over
 * `maxImageSize` by the size its own dictionary declares, but decodes its soft mask or stencil mask
 * (`/SMask`, `/Mask`) at whatever size the mask declares. This finds such a mask in the raw bytes before
 * pdf.js parses anything, so it is never decoded. pdf.js keeps its parsed dictionaries private, so this
 * reads only what a mask declares plainly: an image's `/SMask n g R` or `/Mask n g R` (a stream such as
 * an image is never inside an object stream, so its dictionary is in the file as written) and the
 * mask object's direct `/Width` and `/Height`. A mask declared otherwise (an indirect width, a dictionary
 * padded past the window read) is left to the memory watch (pdf-memory-watch.ts).
 */

export interface OversizedMask {
  /** The mask's object number. */
  object: number;
  width: number;
  height: number;
}

const MASK_KEYS = ['/SMask', '/Mask'].map((key) => Buffer.from(key, 'latin1'));
/** `n g R` right after the key (PDF whitespace between), ending at a delimiter. */
const REFERENCE =
  /^[\0\t\n\f\r ]*(\d{1,10})[\0\t\n\f\r ]+(\d{1,5})[\0\t\n\f\r ]+R(?![^\0\t\n\f\r ()<>[\]{}/%])/;
const REFERENCE_WINDOW = 40;
/** How much of a mask object's dictionary is read, up to `stream`. */
const DICTIONARY_WINDOW = 16_384;
const WIDTH = /\/W(?:idth)?[\0\t\n\f\r ]+(\d{1,10})(?![\d.])/;
const HEIGHT = /\/H(?:eight)?[\0\t\n\f\r ]+(\d{1,10})(?![\d.])/;
const WHITESPACE = new Set([0, 9, 10, 12, 13, 32]);

/**
 * The first mask referenced by an image of `pdf` that declares more than `maxPixels` pixels.
 *
 * @example
 * const mask = oversizedMask(bytes, MAX_IMAGE_PIXELS); // { object: 6, width: 12000, height: 12000 }
 */
export function oversizedMask(pdf: Uint8Array, maxPixels: number): OversizedMask | undefined {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  /** The masks referenced, as `n g`, in the order they are checked. */
  const wanted = new Set<string>();
  for (const key of MASK_KEYS)
    for (let at = bytes.indexOf(key); at >= 0; at = bytes.indexOf(key, at + key.length)) {
      const start = at + key.length;
      const ref = REFERENCE.exec(bytes.toString('latin1', start, start + REFERENCE_WINDOW));
      if (ref) wanted.add(`${ref[1]} ${ref[2]}`);
    }
  if (wanted.size === 0) return undefined;
  const definitions = lastDefinitions(bytes, wanted);
  for (const object of wanted) {
    const at = definitions.get(object);
    const size = at === undefined ? undefined : declaredSize(bytes, at);
    if (size && size.width * size.height > maxPixels)
      return { object: Number(object.slice(0, object.indexOf(' '))), ...size };
  }
  return undefined;
}

const OBJ = Buffer.from(' obj', 'latin1');
const SPACE = 0x20;
const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= 0x30 && byte <= 0x39;

/**
 * Where the last definition of each wanted object (`n g`) ends its `n g obj` header (a later update
 * overrides), in one pass over the bytes. The header is written `n g obj` with single spaces, and starts
 * the file or follows whitespace: "12 0 obj" is not the tail of "112 0 obj".
 */
function lastDefinitions(bytes: Buffer, wanted: ReadonlySet<string>): Map<string, number> {
  const found = new Map<string, number>();
  for (let at = bytes.indexOf(OBJ); at >= 0; at = bytes.indexOf(OBJ, at + 1)) {
    let genStart = at;
    while (isDigit(bytes[genStart - 1])) genStart--;
    if (genStart === at || bytes[genStart - 1] !== SPACE) continue;
    const numEnd = genStart - 1;
    let numStart = numEnd;
    while (isDigit(bytes[numStart - 1])) numStart--;
    if (numStart === numEnd || (numStart > 0 && !WHITESPACE.has(bytes[numStart - 1]!))) continue;
    const object = `${bytes.toString('latin1', numStart, numEnd)} ${bytes.toString('latin1', genStart, at)}`;
    if (wanted.has(object)) found.set(object, at + OBJ.length);
  }
  return found;
}

/** The direct /Width and /Height of an object's dictionary, read from the end of its header. */
function declaredSize(bytes: Buffer, from: number): { width: number; height: number } | undefined {
  const text = bytes.toString('latin1', from, from + DICTIONARY_WINDOW);
  const end = text.indexOf('stream');
  const dictionary = end < 0 ? text : text.slice(0, end);
  const width = WIDTH.exec(dictionary);
  const height = HEIGHT.exec(dictionary);
  return width && height ? { width: Number(width[1]), height: Number(height[1]) } : undefined;
}
