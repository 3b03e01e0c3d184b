/**
 * Streams a multipart create request: small JSON parts are read as text, every `files` part is handed
 * to `upload` as a stream the moment it arrives, so no file is ever held whole in memory.
 */
import { Readable } from 'node:stream';
import { problems } from '@docflow/kit';
import busboy from 'busboy';

export interface IncomingFile {
  fileName: string;
  contentType: string;
  stream: Readable;
}

export interface ParsedCreate<F> {
  /** Text of the `docForm` part, if any. */
  docForm?: string;
  /** Text of the `docResponse` part, if any. */
  docResponse?: string;
  files: F[];
}

const JSON_PART_MAX_BYTES = 1024 * 1024;
const MAX_FILES = 100;
const TEXT_PARTS = new Set(['docForm', 'docResponse']);

async function readText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > JSON_PART_MAX_BYTES)
      throw problems.tooLarge(`a JSON part may hold at most ${JSON_PART_MAX_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseCreateMultipart<F>(
  request: Request,
  upload: (file: IncomingFile) => Promise<F>,
): Promise<ParsedCreate<F>> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !request.body)
    return Promise.reject(problems.unsupportedMediaType('the body must be multipart/form-data'));

  return new Promise((resolve, reject) => {
    const source = Readable.fromWeb(request.body as import('node:stream/web').ReadableStream);
    const parts: { docForm?: string; docResponse?: string } = {};
    const pending: Array<Promise<unknown>> = [];
    const files: F[] = [];
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      source.unpipe();
      source.destroy();
      reject(err);
    };

    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        defParamCharset: 'utf8',
        limits: { fieldSize: JSON_PART_MAX_BYTES, files: MAX_FILES, fields: 10, parts: MAX_FILES + 10 },
      });
    } catch {
      reject(problems.badRequest('malformed multipart/form-data header'));
      return;
    }

    // Files are uploaded one after the other, in the order they arrive.
    let chain: Promise<unknown> = Promise.resolve();
    parser.on('file', (name, stream, info) => {
      if (TEXT_PARTS.has(name)) {
        const read = readText(stream).then((text) => {
          parts[name as 'docForm' | 'docResponse'] = text;
        });
        pending.push(read.catch(fail));
        return;
      }
      if (name !== 'files') {
        stream.resume();
        fail(problems.badRequest(`unknown part ${name}: the parts are docForm, docResponse and files`));
        return;
      }
      const fileName = info.filename;
      if (!fileName) {
        stream.resume();
        fail(problems.badRequest('every files part needs a file name'));
        return;
      }
      const index = files.length;
      files.push(undefined as F);
      chain = chain.then(() =>
        upload({ fileName, contentType: info.mimeType || 'application/octet-stream', stream }).then(
          (stored) => {
            files[index] = stored;
          },
        ),
      );
      pending.push(chain.catch(fail));
    });
    parser.on('field', (name, value, info) => {
      if (!TEXT_PARTS.has(name))
        return fail(
          problems.badRequest(`unknown part ${name}: the parts are docForm, docResponse and files`),
        );
      if (info.valueTruncated) return fail(problems.tooLarge(`the ${name} part is too large`));
      parts[name as 'docForm' | 'docResponse'] = value;
    });
    parser.on('filesLimit', () => fail(problems.tooLarge(`at most ${MAX_FILES} files per document`)));
    parser.on('partsLimit', () => fail(problems.tooLarge('too many parts')));
    parser.on('fieldsLimit', () => fail(problems.badRequest('too many fields')));
    parser.on('error', () => fail(problems.badRequest('malformed multipart/form-data body')));
    parser.on('close', () => {
      Promise.all(pending).then(() => {
        if (!failed) resolve({ ...parts, files });
      }, fail);
    });
    source.on('error', () => fail(problems.badRequest('the upload was interrupted')));
    source.pipe(parser);
  });
}
