/**
 * A pass-through in front of the multipart parser that bounds the whole body and counts its parts.
 *
 * busboy skips a part whose header has no usable `Content-Disposition: form-data` without a word, so
 * the parts it reports are compared with the delimiters that went by: any difference is a broken part.
 */
import { Transform, type TransformCallback } from 'node:stream';

export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
  constructor(readonly maxBytes: number) {
    super(`the body exceeds ${maxBytes} bytes`);
  }
}

export class MultipartGuard extends Transform {
  /** Delimiter lines seen so far (the closing delimiter counts too). */
  delimiters = 0;
  private readonly needle: Buffer;
  /** The last bytes of what went by (fewer than the needle's), so a delimiter split across chunks is found. */
  private tail: Buffer;
  private size = 0;

  constructor(
    boundary: string,
    private readonly maxBytes: number,
  ) {
    super();
    this.needle = Buffer.from(`\r\n--${boundary}`, 'latin1');
    // The first delimiter may open the body with no line break before it.
    this.tail = Buffer.from('\r\n', 'latin1');
  }

  /** The parts the body holds, once it ended: one fewer than its delimiters. */
  get parts(): number {
    return Math.max(0, this.delimiters - 1);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      done(new BodyTooLarge(this.maxBytes));
      return;
    }
    const keep = this.needle.length - 1;
    // A delimiter that straddles the previous chunk and this one starts in `tail`.
    this.delimiters += count(Buffer.concat([this.tail, chunk.subarray(0, keep)]), this.needle);
    this.delimiters += count(chunk, this.needle);
    this.tail =
      chunk.length >= keep
        ? chunk.subarray(chunk.length - keep)
        : Buffer.concat([this.tail, chunk]).subarray(-keep);
    done(null, chunk);
  }
}

function count(haystack: Buffer, needle: Buffer): number {
  let n = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) n++;
  return n;
}

/** The boundary parameter of a multipart content type, unquoted; undefined when there is none. */
export function boundaryOf(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}
