/**
 * The request an in-process call hands to a service app (embedded mode): method, URL and headers as
 * the caller built them. A web `Request` (URL parse, header validation, an abort signal, a body
 * stream) is built only when the service reads a streamed body, form data or the signal; a GET or a
 * JSON body read as bytes or text never builds one.
 */

/** What a caller sends: JSON text, a stream passed on as it arrives, or nothing. */
export type CallBody = ReadableStream<Uint8Array> | string | undefined;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class InProcessRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly #body: CallBody;
  #request: Request | undefined;
  #used = false;

  constructor(method: string, url: string, headers: Headers, body: CallBody) {
    this.method = method;
    this.url = url;
    this.headers = headers;
    this.#body = body;
  }

  /** The web Request with the same method, URL, headers and body, built on first need. */
  #web(): Request {
    this.#request ??= new Request(this.url, {
      method: this.method,
      headers: this.headers,
      body: this.#body,
      ...(this.#body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
    return this.#request;
  }

  /** A text body's bytes, read once without a web Request; a stream goes through one. */
  #read<T>(direct: (bytes: Uint8Array) => T, viaRequest: (r: Request) => Promise<T>): Promise<T> {
    if (this.#request || this.#body instanceof ReadableStream) return viaRequest(this.#web());
    if (this.#used) return Promise.reject(new TypeError('Body is unusable'));
    this.#used = true;
    const text = this.#body ?? '';
    return Promise.resolve().then(() => direct(encoder.encode(text)));
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined) return null;
    return this.#body instanceof ReadableStream ? this.#body : this.#web().body;
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#request?.bodyUsed ?? false);
  }

  get signal(): AbortSignal {
    return this.#web().signal;
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#read(
      (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      (r) => r.arrayBuffer(),
    );
  }

  text(): Promise<string> {
    return this.#read(
      (bytes) => decoder.decode(bytes),
      (r) => r.text(),
    );
  }

  json(): Promise<unknown> {
    return this.#read(
      (bytes) => JSON.parse(decoder.decode(bytes)) as unknown,
      (r) => r.json(),
    );
  }

  formData(): Promise<FormData> {
    return this.#web().formData();
  }

  blob(): Promise<Blob> {
    return this.#web().blob();
  }

  clone(): Request {
    return this.#web().clone();
  }
}

// `instanceof Request` holds, as for @hono/node-server's lightweight request.
Object.setPrototypeOf(InProcessRequest.prototype, Request.prototype);
