/**
 * A recognised page beside its values (issues 33, 34): the words recognition read with their boxes (the
 * layout) and the page image rendered on the server, readable by whoever may download the file and by
 * nobody else (a stranger gets 404, as for the file). In every mode: the distributed one keeps layouts
 * and images in MinIO, where every recognition instance reads them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drawPageEncoded, placedTextPdf } from '@docflow/recognition';
import { createRecognised } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

/** Written value first, label after, as the invoices of issue 34 were (`993548900Factuurnummer:`). */
const INVOICE_PIECES = [
  { text: 'INVOICE', x: 72, y: 90, size: 24 },
  { text: 'INV-2026-001', x: 126, y: 140 },
  { text: 'Invoice No.', x: 72, y: 140 },
  { text: 'Total: 1,234.50', x: 72, y: 160 },
];
const PNG_SIGNATURE = '89504e470d0a1a0a';

/** Width and height from a PNG's IHDR. */
const pngSize = (png: Buffer) => [png.readUInt32BE(16), png.readUInt32BE(20)];

for (const factory of targets()) {
  describe(`a recognised page: layout and image [${factory.name}]`, {
    skip: factory.skip,
    timeout: 400_000,
  }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    let stranger: string;

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      const account = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: { kind: 'service', email: 'stranger@example.com', name_first: 'Some', name_last: 'Stranger' },
      });
      assert.equal(account.status, 201, account.text);
      stranger = account.body.apiKey;
    });
    after(() => target?.stop());

    async function recognizedDoc(name: string, content: Uint8Array, type: string) {
      const res = await createRecognised(api, target.baseUrl, admin, 'invoice', { name, content, type });
      assert.equal(res.body.recoStatus, 'done', res.text);
      return { id: res.body._id as string, fileId: res.body.filesList[0].id as string };
    }

    const image = async (path: string, key: string) => {
      const res = await fetch(`${target.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        bytes: Buffer.from(await res.arrayBuffer()),
      };
    };

    it('a text-layer PDF: its page layout in reading order, and its page rendered as a PNG, the same twice', async () => {
      const { id, fileId } = await recognizedDoc(
        'invoice.pdf',
        placedTextPdf([INVOICE_PIECES]),
        'application/pdf',
      );
      const page = `/api/v2/docForm/${id}/file/${fileId}/page/0`;

      const layout = await api('GET', `${page}/layout`, { key: admin });
      assert.equal(layout.status, 200, layout.text);
      assert.equal(layout.body.source, 'text-layer');
      assert.equal(layout.body.pageIdx, 0);
      const lines = layout.body.lines.map((l: any) => l.words.map((w: any) => w.text).join(' '));
      assert.deepEqual(lines, ['INVOICE', 'Invoice No. INV-2026-001', 'Total: 1,234.50']);
      const value = layout.body.lines[1].words[2];
      assert.ok(Math.abs(value.box[0] - 126 / 595) < 0.002, JSON.stringify(value));

      const first = await image(`${page}/image`, admin);
      assert.equal(first.status, 200, first.bytes.toString());
      assert.equal(first.type, 'image/png');
      assert.equal(first.bytes.subarray(0, 8).toString('hex'), PNG_SIGNATURE);
      // A4 at 100 dpi.
      assert.deepEqual(pngSize(first.bytes), [827, 1170]);
      const again = await image(`${page}/image`, admin);
      assert.ok(again.bytes.equals(first.bytes));

      // A page the file does not have, a file the document does not have.
      assert.equal(
        (await api('GET', `/api/v2/docForm/${id}/file/${fileId}/page/1/layout`, { key: admin })).status,
        404,
      );
      assert.equal((await image(`/api/v2/docForm/${id}/file/${fileId}/page/1/image`, admin)).status, 404);
      assert.equal(
        (await api('GET', `/api/v2/docForm/${id}/file/${'a'.repeat(24)}/page/0/layout`, { key: admin }))
          .status,
        404,
      );

      // A stranger learns nothing, not even that the document exists.
      const strangers = await api('GET', `${page}/layout`, { key: stranger });
      assert.equal(strangers.status, 404);
      assert.equal(strangers.headers.get('content-type'), 'application/problem+json');
      assert.equal((await image(`${page}/image`, stranger)).status, 404);
    });

    it('an image: OCR words with their boxes, and the image as a PNG of its own size', async () => {
      const png = await drawPageEncoded(
        [{ text: 'INVOICE', size: 28 }, { text: 'Invoice No. INV-2026-002' }, { text: 'Total: 99.00' }],
        'png',
        150,
      );
      const { id, fileId } = await recognizedDoc('invoice.png', png, 'image/png');
      const page = `/api/v2/docForm/${id}/file/${fileId}/page/0`;
      const layout = await api('GET', `${page}/layout`, { key: admin });
      assert.equal(layout.status, 200, layout.text);
      assert.equal(layout.body.source, 'ocr');
      const words = layout.body.lines.flatMap((l: any) => l.words);
      const value = words.find((w: any) => w.text === 'INV-2026-002');
      assert.ok(value && value.confidence > 50, JSON.stringify(words));
      const shown = await image(`${page}/image`, admin);
      assert.equal(shown.status, 200);
      assert.equal(shown.type, 'image/png');
      assert.deepEqual(pngSize(shown.bytes), pngSize(png));
    });
  });
}
