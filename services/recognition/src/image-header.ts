/**
 * The pixel size an image declares in its header (PNG IHDR, JPEG SOF, TIFF first IFD), read without
 * decoding anything: the size a decoder would allocate for, checked before the image reaches OCR.
 */
import type { FileKind } from './file-kind';

export interface ImageSize {
  width: number;
  height: number;
}

/** The largest image OCR is given: an A4 page scanned at 600 dpi, or A2 at 300 dpi. */
export const MAX_IMAGE_PIXELS = 35_000_000;

/** The declared size, or undefined when the header is missing or broken (the image is unreadable). */
export function declaredImageSize(bytes: Uint8Array, kind: Exclude<FileKind, 'pdf'>): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = kind === 'png' ? pngSize(view) : kind === 'jpeg' ? jpegSize(view) : tiffSize(view);
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}

/** IHDR is the first chunk, right after the 8-byte signature: length, type, width, height. */
function pngSize(view: DataView): ImageSize | undefined {
  if (view.byteLength < 24 || ascii(view, 12, 4) !== 'IHDR') return undefined;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Start-of-frame markers: C0–CF except C4 (Huffman tables), C8 (reserved) and CC (arithmetic coding). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Walks the marker segments from SOI to the first SOF: precision (1 byte), height, width. */
function jpegSize(view: DataView): ImageSize | undefined {
  let at = 2;
  while (at + 4 <= view.byteLength) {
    if (view.getUint8(at) !== 0xff) return undefined;
    const marker = view.getUint8(at + 1);
    // Fill bytes, and markers without a length (TEM, RSTn).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    // Image data (SOS) or the end (EOI) before any frame header.
    if (marker === 0xda || marker === 0xd9) return undefined;
    const length = view.getUint16(at + 2);
    if (length < 2) return undefined;
    if (isStartOfFrame(marker)) {
      if (at + 9 > view.byteLength) return undefined;
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

const TIFF_IMAGE_WIDTH = 256;
const TIFF_IMAGE_LENGTH = 257;
const TIFF_SHORT = 3;
const TIFF_LONG = 4;

/** The first IFD (the page tesseract reads): its ImageWidth and ImageLength entries. */
function tiffSize(view: DataView): ImageSize | undefined {
  if (view.byteLength < 8) return undefined;
  const little = ascii(view, 0, 2) === 'II';
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > view.byteLength) return undefined;
  const entries = view.getUint16(ifd, little);
  let width: number | undefined;
  let height: number | undefined;
  for (let i = 0; i < entries; i++) {
    const at = ifd + 2 + i * 12;
    if (at + 12 > view.byteLength) return undefined;
    const tag = view.getUint16(at, little);
    if (tag !== TIFF_IMAGE_WIDTH && tag !== TIFF_IMAGE_LENGTH) continue;
    const type = view.getUint16(at + 2, little);
    const value =
      type === TIFF_SHORT
        ? view.getUint16(at + 8, little)
        : type === TIFF_LONG
          ? view.getUint32(at + 8, little)
          : undefined;
    if (tag === TIFF_IMAGE_WIDTH) width = value;
    else height = value;
  }
  return width !== undefined && height !== undefined ? { width, height } : undefined;
}

function ascii(view: DataView, at: number, length: number): string {
  return String.fromCharCode(...new Uint8Array(view.buffer, view.byteOffset + at, length));
}
