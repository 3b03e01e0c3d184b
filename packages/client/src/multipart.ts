/** A multipart/form-data body streamed part by part: files are read from their sources as the request goes out. */
import { randomBytes } from 'node:crypto';

/** Bytes of a file: read once, in order, never held whole (a Node `Readable` is an `AsyncIterable`). */
export type FileSource =
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>
  | Blob
  | Uint8Array
  | string;

export interface UploadFile {
  name: string;
  content: FileSource;
  /** Defaults to application/octet-stream. */
  type?: string;
}

export interface MultipartBody {
  boundary: string;
  stream: ReadableStream<Uint8Array>;
}

const encoder = new TextEncoder();

/** `"` and line breaks cannot stand in a quoted parameter: escaped as the HTML form encoding does. */
const quoted = (value: string) => value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

async function* bytesOf(source: FileSource): AsyncGenerator<Uint8Array> {
  if (typeof source === 'string') yield encoder.encode(source);
  else if (source instanceof Uint8Array) yield source;
  else if (source instanceof Blob) yield* bytesOf(source.stream());
  else
    for await (const chunk of source as AsyncIterable<Uint8Array | string>)
      yield typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
}

/**
 * Encodes JSON fields then files as multipart/form-data, pulling each file's bytes only when the
 * request body is read.
 */
export function multipartBody(fields: Record<string, unknown>, files: readonly UploadFile[]): MultipartBody {
  const boundary = `docflow-${randomBytes(16).toString('hex')}`;
  async function* parts(): AsyncGenerator<Uint8Array> {
    for (const [name, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      yield encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n` +
          `Content-Type: application/json\r\n\r\n${JSON.stringify(value)}\r\n`,
      );
    }
    for (const file of files) {
      yield encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${quoted(file.name)}"\r\n` +
          `Content-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      );
      yield* bytesOf(file.content);
      yield encoder.encode('\r\n');
    }
    yield encoder.encode(`--${boundary}--\r\n`);
  }
  return { boundary, stream: ReadableStream.from(parts()) };
}
