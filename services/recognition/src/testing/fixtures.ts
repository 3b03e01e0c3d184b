/**
 * Documents made at run time for tests and benchmarks: A4 pages drawn with @napi-rs/canvas, and a
 * minimal PDF writer for text-layer PDFs and image-only ("scanned") PDFs. No binary is committed.
 */
import { deflateSync } from 'node:zlib';
import { createCanvas } from '@napi-rs/canvas';
import { encodeGreyPng, rgbaToGrey } from '../grey-png';
import { registerPageFont } from '../page-font';

const A4_POINTS = { width: 595, height: 842 };
const MARGIN_INCH = 1;
const LINE_GAP = 1.8;

/** A line of a drawn page; `size` in points (1/72 inch). */
export interface FixtureLine {
  text: string;
  size?: number;
}

export interface GreyPage {
  grey: Uint8Array;
  width: number;
  height: number;
  dpi: number;
}

/** Black text on a white A4 page, as an 8-bit grey raster. */
export function drawPage(lines: FixtureLine[], dpi = 300): GreyPage {
  const family = registerPageFont();
  const scale = dpi / 72;
  const width = Math.round(A4_POINTS.width * scale);
  const height = Math.round(A4_POINTS.height * scale);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000000';
  let y = MARGIN_INCH * dpi;
  for (const line of lines) {
    const px = (line.size ?? 12) * scale;
    y += px * LINE_GAP;
    ctx.font = `${px}px ${family}`;
    ctx.fillText(line.text, MARGIN_INCH * dpi, y);
  }
  return { grey: rgbaToGrey(ctx.getImageData(0, 0, width, height).data, width, height), width, height, dpi };
}

/** A drawn page as an 8-bit grey PNG. */
export function drawPagePng(lines: FixtureLine[], dpi = 300): Buffer {
  const page = drawPage(lines, dpi);
  return encodeGreyPng(page.grey, page.width, page.height);
}

/** A drawn page as a colour (RGBA) PNG or a JPEG, as a phone or a scanner would send it. */
export async function drawPageEncoded(
  lines: FixtureLine[],
  format: 'png' | 'jpeg',
  dpi = 300,
): Promise<Buffer> {
  const page = drawPage(lines, dpi);
  const canvas = createCanvas(page.width, page.height);
  const ctx = canvas.getContext('2d');
  const rgba = ctx.createImageData(page.width, page.height);
  for (let i = 0; i < page.grey.length; i++) {
    const g = page.grey[i]!;
    rgba.data.set([g, g, g, 255], i * 4);
  }
  ctx.putImageData(rgba, 0, 0);
  return format === 'png' ? canvas.encode('png') : canvas.encode('jpeg', 90);
}

/** An uncompressed, single-strip, 8-bit grey baseline TIFF. */
export function greyTiff(page: GreyPage): Buffer {
  const entries: Array<[tag: number, type: 3 | 4, value: number]> = [
    [256, 4, page.width],
    [257, 4, page.height],
    [258, 3, 8],
    [259, 3, 1],
    [262, 3, 1],
    [273, 4, 0],
    [277, 3, 1],
    [278, 4, page.height],
    [279, 4, page.grey.length],
  ];
  const ifdOffset = 8;
  const dataOffset = ifdOffset + 2 + entries.length * 12 + 4;
  const out = Buffer.alloc(dataOffset + page.grey.length);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(ifdOffset, 4);
  out.writeUInt16LE(entries.length, ifdOffset);
  entries.forEach(([tag, type, value], i) => {
    const at = ifdOffset + 2 + i * 12;
    out.writeUInt16LE(tag, at);
    out.writeUInt16LE(type, at + 2);
    out.writeUInt32LE(1, at + 4);
    const v = tag === 273 ? dataOffset : value;
    if (type === 3) out.writeUInt16LE(v, at + 8);
    else out.writeUInt32LE(v, at + 8);
  });
  out.set(page.grey, dataOffset);
  return out;
}

/** A PDF whose pages carry a text layer (Helvetica, not embedded), one string array per page. */
export function textPdf(pages: FixtureLine[][]): Buffer {
  return writePdf(
    pages.map((lines) => {
      let y = A4_POINTS.height - 72;
      const ops = ['BT'];
      for (const line of lines) {
        const size = line.size ?? 12;
        y -= size * LINE_GAP;
        ops.push(`/F1 ${size} Tf 1 0 0 1 72 ${y} Tm (${pdfString(line.text)}) Tj`);
      }
      ops.push('ET');
      return { content: Buffer.from(ops.join('\n'), 'latin1'), resources: '/Font << /F1 FONT >>' };
    }),
  );
}

/** A piece of text at a place on an A4 page: `x` from the left, `y` the baseline from the top, in points. */
export interface PlacedText {
  text: string;
  x: number;
  y: number;
  size?: number;
}

/**
 * A text-layer PDF whose pieces are written in the order given, wherever they stand: as producers write
 * them (a value before its label, an address from its last line up).
 */
export function placedTextPdf(pages: PlacedText[][]): Buffer {
  return writePdf(
    pages.map((pieces) => {
      const ops = ['BT'];
      for (const p of pieces)
        ops.push(
          `/F1 ${p.size ?? 10} Tf 1 0 0 1 ${p.x} ${A4_POINTS.height - p.y} Tm (${pdfString(p.text)}) Tj`,
        );
      ops.push('ET');
      return { content: Buffer.from(ops.join('\n'), 'latin1'), resources: '/Font << /F1 FONT >>' };
    }),
  );
}

/** A PDF whose pages are only images, as a scanner makes them: no text layer at all. */
export function imagePdf(pages: GreyPage[]): Buffer {
  return writePdf(
    pages.map((page) => ({
      content: Buffer.from(`q ${A4_POINTS.width} 0 0 ${A4_POINTS.height} 0 0 cm /Im0 Do Q`, 'latin1'),
      resources: '/XObject << /Im0 IMAGE >>',
      image: page,
    })),
  );
}

interface PdfPageSpec {
  content: Buffer;
  /** Resource dictionary body; FONT and IMAGE are replaced by references to the shared font / the page's image. */
  resources: string;
  image?: GreyPage;
}

function writePdf(pages: PdfPageSpec[]): Buffer {
  const objects: Buffer[] = [];
  const add = (body: Buffer | string) => {
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
    return objects.length;
  };
  const stream = (dict: string, data: Buffer) =>
    Buffer.concat([
      Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream', 'latin1'),
    ]);
  const catalog = add('');
  const pagesObj = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const page of pages) {
    let resources = page.resources.replace('FONT', `${font} 0 R`);
    if (page.image) {
      const { width, height, grey } = page.image;
      const image = add(
        stream(
          `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
          deflateSync(grey),
        ),
      );
      resources = resources.replace('IMAGE', `${image} 0 R`);
    }
    const content = add(stream('', page.content));
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${A4_POINTS.width} ${A4_POINTS.height}] /Resources << ${resources} >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = Buffer.from(`<< /Type /Catalog /Pages ${pagesObj} 0 R >>`, 'latin1');
  objects[pagesObj - 1] = Buffer.from(
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`,
    'latin1',
  );

  return assemblePdf(objects, catalog);
}

/** A PDF file of `objects` (object n is `objects[n - 1]`) with its cross-reference table; `root` is the catalog. */
export function assemblePdf(objects: Buffer[], root: number): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let size = parts[0]!.length;
  objects.forEach((body, i) => {
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n')]);
    offsets.push(size);
    parts.push(obj);
    size += obj.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root ${root} 0 R >>`,
    'startxref',
    String(size),
    '%%EOF\n',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

function pdfString(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}
