/**
 * OpenTelemetry traces, in every mode: one create with recognition, sent with a W3C `traceparent`,
 * is one trace from the gateway through document, files, the bus and recognition back to the
 * document, exported over OTLP/HTTP to a receiver in this test. The trace id is in the log lines and
 * in the events' metadata.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { drawPageEncoded } from '@docflow/recognition';
import Database from 'better-sqlite3';
import { createDoc, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver';
import { type Target, targets } from '../support/targets';

const SERVER = 2;
const CONSUMER = 5;
const RECOGNITION_WAIT_MS = 120_000;
const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'ACME GmbH, Hauptstrasse 1, 10115 Berlin' },
  { text: 'Invoice No. INV-2026-001' },
  { text: 'Total: 1,234.50' },
];

const receiver = await startOtlpReceiver();
after(() => receiver.close());

const service = (s: ReceivedSpan) => s.attributes['docflow.service'];

for (const factory of targets({
  env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' },
})) {
  describe(`tracing [${factory.name}]`, { skip: factory.skip, timeout: 400_000 }, () => {
    let target: Target;
    let api: Api;

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
    });
    after(() => target?.stop());

    it('one create with recognition is one trace, gateway to document, files, bus, recognition and back', async () => {
      const traceId = randomBytes(16).toString('hex');
      const callerSpanId = randomBytes(8).toString('hex');
      const created = await createDoc(
        target.baseUrl,
        target.adminKey,
        'invoice',
        {
          docForm: {},
          files: [{ name: 'invoice.png', content: await drawPageEncoded(INVOICE, 'png'), type: 'image/png' }],
        },
        { headers: { traceparent: `00-${traceId}-${callerSpanId}-01` } },
      );
      assert.equal(created.status, 201, created.text);
      const docId: string = created.body._id;
      const done = await eventually(
        () => api('GET', `/api/v2/docForm/${docId}?embed=recoData`, { key: target.adminKey }),
        (r) => r.body.recoStatus !== 'pending',
        RECOGNITION_WAIT_MS,
      );
      assert.equal(done.body.recoStatus, 'done', JSON.stringify(done.body));

      const ofTrace = () => receiver.spans.filter((s) => s.traceId === traceId);
      const isRecordingAppend = (s: ReceivedSpan) =>
        s.name === 'eventstore.append' &&
        service(s) === 'document' &&
        (s.attributes['docflow.event_types'] as string[]).includes('RecognitionRecorded');
      // Each process exports on its own schedule, and a parent span ends after its children: wait
      // until the result's recording is in and no span still misses its parent.
      const complete = (spans: ReceivedSpan[]) => {
        const ids = new Set([callerSpanId, ...spans.map((s) => s.spanId)]);
        return spans.some(isRecordingAppend) && spans.every((s) => ids.has(s.parentSpanId ?? ''));
      };
      await eventually(async () => ofTrace(), complete, 30_000);
      const spans = ofTrace();
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      const names = spans.map((s) => `${service(s) ?? '-'} ${s.name}`).join('\n');

      // One tree: the gateway's server span is the only child of the caller's span, every other span's
      // parent is a span of the trace.
      const roots = spans.filter((s) => !byId.has(s.parentSpanId ?? ''));
      assert.deepEqual(
        roots.map((s) => [s.parentSpanId, service(s), s.kind]),
        [[callerSpanId, 'gateway', SERVER]],
        names,
      );
      const ancestors = (span: ReceivedSpan): ReceivedSpan[] => {
        const chain: ReceivedSpan[] = [];
        for (let p = byId.get(span.parentSpanId ?? ''); p; p = byId.get(p.parentSpanId ?? '')) chain.push(p);
        return chain;
      };
      const find = (what: string, match: (s: ReceivedSpan) => boolean) => {
        const found = spans.find(match);
        assert.ok(found, `${what} is in the trace:\n${names}`);
        return found;
      };

      // The result recorded by the document goes back through recognition, the bus and the create.
      const recorded = find('the document recording the result', isRecordingAppend);
      const path = [recorded, ...ancestors(recorded)]
        .filter((s) => s.kind === SERVER || s.kind === CONSUMER)
        .map((s) => `${service(s)} ${s.kind === SERVER ? 'server' : 'consumer'}`)
        .reverse();
      assert.deepEqual(
        path,
        ['gateway server', 'document server', 'recognition consumer', 'document consumer'],
        names,
      );

      const filesUpload = find(
        'the files service storing the upload',
        (s) => s.name === 'blobstore.put' && service(s) === 'files',
      );
      assert.deepEqual(
        ancestors(filesUpload)
          .filter((s) => s.kind === SERVER)
          .map(service),
        ['files', 'document', 'gateway'],
      );
      const page = find('an OCR page', (s) => s.name === 'ocr.page' && service(s) === 'recognition');
      assert.ok(
        ancestors(page).some((s) => s.kind === CONSUMER && service(s) === 'recognition'),
        'the page is OCRed inside the recognition consumer span',
      );
      const recognitionFetch = find(
        'recognition reading the file from the files service',
        (s) => s.kind === SERVER && service(s) === 'files' && s.attributes['http.request.method'] === 'GET',
      );
      assert.ok(ancestors(recognitionFetch).some((s) => s.kind === CONSUMER && service(s) === 'recognition'));

      // The trace id is in the log lines and in every event of the document's stream.
      assert.ok(target.output().includes(`"traceId":"${traceId}"`), 'the log lines carry the trace id');
      const db = new Database(target.eventStoreFile('document'), { readonly: true });
      try {
        const rows = db
          .prepare('SELECT type, metadata FROM events WHERE stream_id = ? ORDER BY revision')
          .all(`docForm-${docId}`) as Array<{ type: string; metadata: string }>;
        assert.ok(rows.some((r) => r.type === 'RecognitionRecorded'));
        for (const row of rows)
          assert.match(
            String(JSON.parse(row.metadata).traceparent),
            new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`),
            row.type,
          );
      } finally {
        db.close();
      }
    });

    it('without a traceparent, a request starts its own trace and still logs its id', async () => {
      const res = await api('GET', '/api/v2/docForm/view/mydocs', { key: target.adminKey });
      assert.equal(res.status, 200, res.text);
      const requestId = res.headers.get('x-request-id');
      // The access line is written once the answer is sent: it may reach the pipe a moment later.
      const accessLine = () =>
        target
          .output()
          .split('\n')
          .find((l) => l.includes(`"requestId":"${requestId}"`) && l.includes('"msg":"request"'));
      const line = await eventually(async () => accessLine(), Boolean);
      assert.match(line ?? '', /"traceId":"[0-9a-f]{32}"/, 'the access log line names the new trace');
    });
  });
}
