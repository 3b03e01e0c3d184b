import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FormDefinition } from '@docflow/contracts';
import { RecognizedField, ValuesByTags } from '@docflow/contracts';
import { createOcrPool, type OcrPool } from './ocr-pool';
import {
  type Attachment,
  type RecoFailureReason,
  type RecognizeFileResult,
  type RecoPart,
  recoFailureProblem,
  recognizeFile,
} from './recognize-file';
import { drawPage, drawPageEncoded, greyTiff, imagePdf, textPdf } from './testing/fixtures';
import { DELIVERY_NOTE_LINES, INVOICE_FORM, INVOICE_LINES } from './testing/invoice-form';

/** The prebuilt invoice form's values of INVOICE_LINES, normalised (the supplier from the letterhead). */
const INVOICE_VALUES = {
  supplier: 'ACME GmbH',
  invoiceNo: 'INV-2026-001',
  invoiceDate: '2026-03-14',
  total: '1234.50',
};
const NOTE_VALUES = { supplier: 'ACME GmbH' };

let dir: string;
let pool: OcrPool;
/** Fixture files, generated into a temporary directory before the tests. */
const files: Record<string, string> = {};

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docflow-recognition-'));
  const invoiceScan = drawPage(INVOICE_LINES);
  const fixtures: Record<string, Uint8Array> = {
    'invoice.png': await drawPageEncoded(INVOICE_LINES, 'png'),
    'invoice.jpg': await drawPageEncoded(INVOICE_LINES, 'jpeg'),
    'invoice.tif': greyTiff(invoiceScan),
    'scan-two-forms.pdf': imagePdf([invoiceScan, drawPage(DELIVERY_NOTE_LINES, 200)]),
    'invoice-text.pdf': textPdf([INVOICE_LINES]),
    'corrupt.png': Buffer.concat([
      (await drawPageEncoded(INVOICE_LINES, 'png')).subarray(0, 40),
      Buffer.alloc(64, 7),
    ]),
    'corrupt.pdf': Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog'), Buffer.alloc(64, 7)]),
    'notes.txt': Buffer.from('INVOICE\nInvoice No. INV-2026-001\nTotal: 1,234.50\n'),
  };
  for (const [name, bytes] of Object.entries(fixtures)) {
    files[name] = join(dir, name);
    await writeFile(files[name], bytes);
  }
  pool = await createOcrPool({ size: 2 });
});

after(async () => {
  await pool?.terminate();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** An attachment streamed from its fixture file. */
const streamed = (name: string, contentType?: string): Attachment => ({
  data: createReadStream(files[name]!),
  fileName: name,
  contentType,
});

function parts(result: RecognizeFileResult): RecoPart[] {
  assert.ok(result.ok, result.ok ? '' : `${result.reason}: ${result.detail}`);
  for (const part of result.parts) assert.equal(ValuesByTags.safeParse(part.valuesByTags).success, true);
  return result.parts;
}

function assertPart(
  part: RecoPart | undefined,
  id: string,
  pages: [number, number],
  values: object,
  min = 70,
) {
  assert.ok(part, `a part ${id}`);
  assert.deepEqual(part.recoForm, {
    form: null,
    id,
    name: INVOICE_FORM.recognition!.forms.find((f) => f.id === id)!.name,
  });
  assert.deepEqual([part.pageIdxStart, part.pageIdxEnd], pages);
  assert.ok(part.confidence >= min && part.confidence <= 100, `confidence ${part.confidence}`);
  assert.deepEqual(part.valuesByTags, values);
  // Each value with how it was found (issue 34).
  assert.deepEqual(Object.keys(part.fieldsByTags).sort(), Object.keys(values).sort());
  for (const [tag, field] of Object.entries(part.fieldsByTags)) {
    assert.equal(RecognizedField.safeParse(field).success, true, tag);
    // A pattern field's value is not tied to one place; a typed one is on a page of its part.
    const { pageIdx } = field;
    assert.ok(pageIdx === undefined || (pageIdx >= pages[0] && pageIdx <= pages[1]), tag);
  }
}

describe('recognizeFile: images', () => {
  const images: Array<[name: string, contentType: string]> = [
    ['invoice.png', 'image/png'],
    ['invoice.jpg', 'image/jpeg'],
    ['invoice.tif', 'image/tiff'],
  ];
  for (const [name, contentType] of images)
    it(`${name}: one invoice part with its values`, async () => {
      const result = await recognizeFile(streamed(name, contentType), INVOICE_FORM, pool);
      const [invoice, ...rest] = parts(result);
      assertPart(invoice, 'inv', [0, 0], INVOICE_VALUES);
      assert.deepEqual(rest, []);
      assert.equal(result.ok && result.ocrPageCount, 1);
    });
});

describe('recognizeFile: PDFs', () => {
  it('a scanned PDF with an invoice and a delivery note: two parts, each with its values', async () => {
    const result = await recognizeFile(streamed('scan-two-forms.pdf', 'application/pdf'), INVOICE_FORM, pool);
    const [invoice, note, ...rest] = parts(result);
    assertPart(invoice, 'inv', [0, 0], INVOICE_VALUES);
    assertPart(note, 'dn', [1, 1], NOTE_VALUES);
    assert.deepEqual(rest, []);
    assert.equal(result.ok && result.pageCount, 2);
    assert.equal(result.ok && result.ocrPageCount, 2);
    // Both pages' OCR text, kept for search, in page order.
    const text = result.ok ? result.text : '';
    assert.match(text, /invoice[\s\S]*delivery/i);
  });

  it('a text PDF uses its text layer: no OCR, full confidence', async () => {
    const result = await recognizeFile(
      { data: await readFile(files['invoice-text.pdf']!), contentType: 'application/pdf' },
      INVOICE_FORM,
      pool,
    );
    const [invoice, ...rest] = parts(result);
    // Both keywords and three labelled fields of four that saturate field evidence (classify.ts).
    assertPart(invoice, 'inv', [0, 0], INVOICE_VALUES, 90);
    assert.deepEqual(rest, []);
    assert.equal(result.ok && result.ocrPageCount, 0);
    // The text layer, kept for search.
    assert.match(result.ok ? result.text : '', /invoice/i);
  });

  it('a hostile field pattern over a text layer of 5,000 a\u2019s and a !: recognised, in linear time', async () => {
    const hostile: FormDefinition = {
      ...INVOICE_FORM,
      recognition: {
        forms: [
          {
            ...INVOICE_FORM.recognition!.forms[0]!,
            fields: { ...INVOICE_FORM.recognition!.forms[0]!.fields, run: '(a+)+$' },
          },
        ],
      },
    };
    // 50 lines of 100 a's (a longer line runs off the page, where pdf.js drops it), the last with a !.
    const run = Array.from({ length: 50 }, (_, i) => ({
      text: `${'a'.repeat(100)}${i === 49 ? '!' : ''}`,
      size: 4,
    }));
    const pdf = textPdf([[...INVOICE_LINES, ...run]]);
    const [invoice] = parts(await recognizeFile({ data: pdf }, hostile, pool));
    // As without the hostile field: the run of a's ends in a ! and so never matches.
    assertPart(invoice, 'inv', [0, 0], INVOICE_VALUES, 90);
  });

  it('idpFrpr forces OCR of a text PDF', async () => {
    const result = await recognizeFile(streamed('invoice-text.pdf'), INVOICE_FORM, pool, { idpFrpr: true });
    const [invoice] = parts(result);
    assertPart(invoice, 'inv', [0, 0], INVOICE_VALUES);
    assert.ok(invoice!.confidence < 100);
    assert.equal(result.ok && result.ocrPageCount, 1);
  });
});

describe('recognizeFile: failures are returned values', () => {
  const cases: Array<[name: string, file: () => Attachment, reason: RecoFailureReason, status: number]> = [
    ['a corrupt PNG', () => streamed('corrupt.png', 'image/png'), 'unreadable', 422],
    ['a corrupt PDF', () => streamed('corrupt.pdf', 'application/pdf'), 'unreadable', 422],
    ['text claiming to be a PDF', () => streamed('notes.txt', 'application/pdf'), 'unreadable', 422],
    ['a text file', () => streamed('notes.txt', 'text/plain'), 'unsupported-type', 415],
    ['a file over the size bound', () => streamed('invoice.png'), 'too-large', 413],
  ];
  for (const [name, file, reason, status] of cases)
    it(`${name} → ${reason}`, async () => {
      const result = await recognizeFile(file(), INVOICE_FORM, pool, { maxBytes: 20_000 });
      assert.equal(result.ok, false);
      assert.equal(!result.ok && result.reason, reason);
      assert.equal(!result.ok && recoFailureProblem(result).status, status);
    });

  it('a stream that fails → unavailable', async () => {
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('%PDF-1.7\n');
      throw new Error('blob store went away');
    }
    const result = await recognizeFile({ data: broken() }, INVOICE_FORM, pool);
    assert.deepEqual(result, {
      ok: false,
      reason: 'unavailable',
      detail: 'the file could not be read: blob store went away',
    });
  });

  it('an OCR language that is not installed → a 400 problem listing the installed ones', async () => {
    const result = await recognizeFile(streamed('invoice.png'), INVOICE_FORM, pool, { idpLangs: 'eng+deu' });
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.reason, 'unsupported-language');
    const problem = !result.ok && recoFailureProblem(result).toProblem();
    assert.ok(problem);
    assert.equal(problem.status, 400);
    assert.equal(problem.detail, 'OCR language(s) not installed: deu; installed: eng');
  });
});

it('a form without recognition forms gives no parts and reads nothing', async () => {
  const memo: FormDefinition = { name: 'memo', title: 'Memo', formsystype: 1, tags: {} };
  async function* untouched(): AsyncGenerator<Uint8Array> {
    yield assert.fail('the file was read');
  }
  assert.deepEqual(await recognizeFile({ data: untouched() }, memo, pool), {
    ok: true,
    parts: [],
    pageCount: 0,
    ocrPageCount: 0,
    text: '',
    layouts: [],
  });
});
