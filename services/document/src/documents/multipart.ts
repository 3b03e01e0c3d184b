/**
 * Streams a multipart create request: small JSON parts are read as text, every `files` part is handed
 * to `upload` as a stream the moment it arrives, so no file is ever held whole in memory.
 *
 * Whatever way it ends, it settles only once no upload is running any more: a caller that collects
 * what `upload` stored knows, when it is rejected, every file it has to discard.
 */
import { Readable } from 'node:stream';
import { problems } from '@docflow/kit/http';
import busboy from 'busboy';
import { BodyTooLarge, boundaryOf, MultipartGuard } from './multipart-guard';

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

export interface MultipartLimits {
  /** The whole body, every file together (413 beyond). */
  maxBodyBytes: number;
}

const JSON_PART_MAX_BYTES = 1024 * 1024;
const MAX_FILES = 100;
const TEXT_PARTS = new Set(['docForm', 'docResponse']);
/** A UTF-16 surrogate without its other half: no UTF-8 (and no file system) can hold it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

async function readText(name: string, stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > JSON_PART_MAX_BYTES)
      throw problems.tooLarge(`a JSON part may hold at most ${JSON_PART_MAX_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return strictUtf8.decode(Buffer.concat(chunks));
  } catch {
    throw problems.badRequest(`the ${name} part is not valid UTF-8`);
  }
}

const brokenPart = () =>
  problems.badRequest(
    'a part has no valid `Content-Disposition: form-data; name="…"` header (the parts are docForm, docResponse and files)',
  );

export function parseCreateMultipart<F>(
  request: Request,
  upload: (file: IncomingFile) => Promise<F>,
  limits: MultipartLimits,
): Promise<ParsedCreate<F>> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !request.body)
    return Promise.reject(problems.unsupportedMediaType('the body must be multipart/form-data'));
  const boundary = boundaryOf(contentType);
  if (!boundary) return Promise.reject(problems.badRequest('malformed multipart/form-data header'));

  return new Promise((resolve, reject) => {
    const source = Readable.fromWeb(request.body as import('node:stream/web').ReadableStream);
    const guard = new MultipartGuard(boundary, limits.maxBodyBytes);
    const parts: { docForm?: string; docResponse?: string } = {};
    const pending: Array<Promise<unknown>> = [];
    const files: F[] = [];
    /** File streams not yet read to their end: a failure ends them, so their uploads end too. */
    const open = new Set<Readable>();
    let reported = 0;
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      source.unpipe();
      source.destroy();
      guard.destroy();
      for (const stream of open) stream.destroy(new Error('the request failed'));
      Promise.allSettled(pending).then(() => reject(err));
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
      reported++;
      // busboy errors a file stream whose body ends early; unheard, that error would end the process.
      stream.once('error', () => fail(problems.badRequest('the multipart body ended inside a part')));
      if (TEXT_PARTS.has(name)) {
        const read = readText(name, stream).then((text) => {
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
      if (LONE_SURROGATE.test(fileName)) {
        stream.resume();
        fail(problems.badRequest('a file name is not well-formed Unicode'));
        return;
      }
      open.add(stream);
      stream.once('end', () => open.delete(stream));
      const index = files.length;
      files.push(undefined as F);
      chain = chain.then(async () => {
        if (failed) return;
        files[index] = await upload({
          fileName,
          contentType: info.mimeType || 'application/octet-stream',
          stream,
        });
      });
      pending.push(chain.catch(fail));
    });
    parser.on('field', (name, value, info) => {
      reported++;
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
      if (reported < guard.parts) fail(brokenPart());
      Promise.all(pending).then(() => {
        if (!failed) resolve({ ...parts, files });
      }, fail);
    });
    source.on('error', () => fail(problems.badRequest('the upload was interrupted')));
    guard.on('error', (err) =>
      fail(
        err instanceof BodyTooLarge
          ? problems.tooLarge(`a document's files may hold at most ${err.maxBytes} bytes together`)
          : problems.badRequest('the upload was interrupted'),
      ),
    );
    source.pipe(guard).pipe(parser);
  });
}
