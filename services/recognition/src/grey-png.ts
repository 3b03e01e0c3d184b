/** 8-bit greyscale PNG: the input tesseract.js reads fastest (about 3× faster than colour, ocr.md). */
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const COLOUR_TYPE_GREY = 0;
const FILTER_NONE = 0;

/** Luminance (ITU-R BT.601 weights in 8-bit fixed point) of RGBA pixels, alpha ignored. */
export function rgbaToGrey(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  const grey = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < grey.length; i++, p += 4)
    grey[i] = (rgba[p]! * 77 + rgba[p + 1]! * 150 + rgba[p + 2]! * 29) >> 8;
  return grey;
}

/** Encodes one byte per pixel, row by row, as a PNG. */
export function encodeGreyPng(grey: Uint8Array, width: number, height: number): Buffer {
  if (grey.length !== width * height) throw new RangeError('grey pixels do not match width × height');
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = FILTER_NONE;
    raw.set(grey.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  return greyPngFile(width, height, 8, deflateSync(raw));
}

/** A grey PNG of `bitDepth` bits per pixel around `idat`, the deflated, filtered rows. */
export function greyPngFile(width: number, height: number, bitDepth: 1 | 8, idat: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = bitDepth;
  header[9] = COLOUR_TYPE_GREY;
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(typed.length + 8);
  out.writeUInt32BE(data.length, 0);
  typed.copy(out, 4);
  out.writeUInt32BE(crc32(typed), typed.length + 4);
  return out;
}
