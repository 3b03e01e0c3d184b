/**
 * The worker thread's side of pdf-thread.ts: it holds the one PDF it was given and answers the main
 * thread's requests with pdf.ts. Whatever pdf.js spends here (parsing, rendering, grey conversion, PNG
 * encoding) is off the main thread's event loop, and the main thread bounds it.
 */
import { parentPort } from 'node:worker_threads';
import { openPdf, type PdfFile, PdfTooLargeError } from './pdf';
import type { PdfReply, PdfRequest } from './pdf-thread';

const port = parentPort!;
let pdf: PdfFile | undefined;

async function answer(request: PdfRequest): Promise<PdfReply> {
  const { id } = request;
  try {
    switch (request.op) {
      case 'open':
        pdf = await openPdf(request.bytes);
        return { id, ok: true, value: pdf.pageCount };
      case 'layout':
        return { id, ok: true, value: await opened().pageLayout(request.pageIdx) };
      case 'render':
        return { id, ok: true, value: await opened().renderPage(request.pageIdx, request.dpi) };
      case 'close':
        await pdf?.close();
        pdf = undefined;
        return { id, ok: true, value: undefined };
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { id, ok: false, kind: err instanceof PdfTooLargeError ? 'too-large' : 'unreadable', message };
  }
}

function opened(): PdfFile {
  if (!pdf) throw new Error('no PDF is open');
  return pdf;
}

port.on('message', (request: PdfRequest) => {
  void answer(request).then((reply) => port.postMessage(reply));
});
