/**
 * Hostile attachments made at run time (issue 29): small files that declare enormous work. Nothing
 * here is committed as a binary; each generator is bounded by its arguments.
 */
import { createDeflate } from 'node:zlib';
import { greyPngFile } from '../grey-png';
import { assemblePdf } from './fixtures';

const POINTS_PER_INCH = 72;

/** `pages` blank pages of `inches` × `inches` each: a few hundred bytes that declare gigapixels at 300 dpi. */
export function hugePagePdf(pages: number, inches: number): Buffer {
  const side = inches * POINTS_PER_INCH;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${i + 4} 0 R`).join(' ')}] /Count ${pages} >>`,
    '<< /Length 0 >>\nstream\n\nendstream',
    ...Array.from(
      { length: pages },
      () =>
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${side} ${side}] /Resources << >> /Contents 3 0 R >>`,
    ),
  ];
  return assemblePdf(
    objects.map((o) => Buffer.from(o, 'latin1')),
    1,
  );
}

/**
 * One blank A4 page under a page tree `depth` levels deep (each /Pages node has one kid): a reader
 * walks every level to find page 1. 400,000 levels are about 32 MB.
 */
export function deepPageTreePdf(depth: number): Buffer {
  // Objects: 1 catalog, 2 … depth + 1 the /Pages chain, depth + 2 the page, depth + 3 its contents.
  const page = depth + 2;
  const objects: Buffer[] = [Buffer.from('<< /Type /Catalog /Pages 2 0 R >>', 'latin1')];
  for (let level = 0; level < depth; level++) {
    const self = level + 2;
    const parent = level === 0 ? '' : ` /Parent ${self - 1} 0 R`;
    const kid = level === depth - 1 ? page : self + 1;
    objects.push(Buffer.from(`<< /Type /Pages${parent} /Kids [${kid} 0 R] /Count 1 >>`, 'latin1'));
  }
  objects.push(
    Buffer.from(
      `<< /Type /Page /Parent ${depth + 1} 0 R /MediaBox [0 0 595 842] /Resources << >> /Contents ${page + 1} 0 R >>`,
      'latin1',
    ),
    Buffer.from('<< /Length 0 >>\nstream\n\nendstream', 'latin1'),
  );
  return assemblePdf(objects, 1);
}

/**
 * A grey PNG declaring `width` × `height` pixels of `bitDepth` bits, all white, compressed (a
 * decompression bomb: 60000 × 60000 at 1 bit is about 0.44 MB and 3.6 gigapixels once decoded).
 */
export async function pngBomb(width: number, height: number, bitDepth: 1 | 8): Promise<Buffer> {
  // Each PNG row starts with its filter byte (0: none).
  const compressed = await deflatedRows(1 + Math.ceil((width * bitDepth) / 8), height, 1);
  return greyPngFile(width, height, bitDepth, compressed);
}

/** Objects 1–4 of a one-page A4 PDF whose page draws the image XObject `/Im0`, object 5, over the whole page. */
function a4PageDrawingIm0(): Buffer[] {
  const content = 'q 595 0 0 842 0 0 cm /Im0 Do Q';
  return [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>', 'latin1'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>', 'latin1'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>',
      'latin1',
    ),
    Buffer.from(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`, 'latin1'),
  ];
}

/**
 * A grey image XObject of FlateDecode-compressed `data`; its width and height as given (a number, or a
 * reference such as `7 0 R`), `extra` entries added to its dictionary.
 */
function greyImageXObject(
  width: number | string,
  height: number | string,
  bitDepth: 1 | 8,
  data: Buffer,
  extra = '',
): Buffer {
  return Buffer.concat([
    Buffer.from(
      `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray ` +
        `/BitsPerComponent ${bitDepth}${extra} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
      'latin1',
    ),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

/**
 * One A4 page that draws a grey image XObject declaring `width` × `height` pixels of `bitDepth` bits,
 * all white, FlateDecode-compressed: the PNG bomb's pixels inside a PDF, where no image header is read
 * before pdf.js decodes them (a 20000 × 20000 1-bit image is about 50 KB).
 */
export async function imageBombPdf(width: number, height: number, bitDepth: 1 | 8): Promise<Buffer> {
  const data = await deflatedRows(Math.ceil((width * bitDepth) / 8), height, 0);
  return assemblePdf([...a4PageDrawingIm0(), greyImageXObject(width, height, bitDepth, data)], 1);
}

/**
 * One A4 page that draws a 100 × 100 grey image whose soft mask (`/SMask`) declares `maskSide` ×
 * `maskSide` pixels of 8 bits, all opaque: pdf.js bounds an image's own size, not its mask's, which it
 * decodes at the declared size (12000 × 12000 is about 141 KB and took the process to about 2 GB).
 * `sizeBy: 'reference'` declares the mask's width and height through an indirect object, which pdf.js
 * resolves and a reader of the raw dictionary does not.
 */
export async function softMaskBombPdf(
  maskSide: number,
  sizeBy: 'direct' | 'reference' = 'direct',
): Promise<Buffer> {
  const IMAGE_SIDE = 100;
  const image = await deflatedRows(IMAGE_SIDE, IMAGE_SIDE, 0);
  const mask = await deflatedRows(maskSide, maskSide, 0);
  const maskSize = sizeBy === 'direct' ? maskSide : '7 0 R';
  return assemblePdf(
    [
      ...a4PageDrawingIm0(),
      greyImageXObject(IMAGE_SIDE, IMAGE_SIDE, 8, image, ' /SMask 6 0 R'),
      greyImageXObject(maskSize, maskSize, 8, mask),
      Buffer.from(String(maskSide), 'latin1'),
    ],
    1,
  );
}

/**
 * `rows` rows of `rowBytes` bytes, all 0xff after `prefix` zero bytes each, deflated as a stream so
 * that the decoded size is never held here.
 */
async function deflatedRows(rowBytes: number, rows: number, prefix: number): Promise<Buffer> {
  const row = Buffer.alloc(rowBytes, 0xff);
  row.fill(0, 0, prefix);
  const deflate = createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => compressed.push(chunk));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  for (let y = 0; y < rows; y++)
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  deflate.end();
  await done;
  return Buffer.concat(compressed);
}
