/**
 * Which of many byte strings occur in a buffer, in one pass per distinct length (Rabin–Karp): a
 * rolling hash of every window of each length is looked up among the hashes of the strings of that
 * length, through a bitmap first, and a hit is confirmed byte by byte. Looking for each string on its
 * own took 637 s for 40,000 values in 14 MB; this is linear in the bytes times the lengths.
 */
const BASE = 257;
const BITMAP_BITS = 1 << 24;

interface Needle {
  bytes: Buffer;
  label: string;
}

export class NeedleSet {
  private readonly byLength = new Map<number, Map<number, Needle[]>>();
  private readonly bitmap = new Uint32Array(BITMAP_BITS / 32);
  /** The longest string: a caller searching a stream in chunks keeps this many bytes less one. */
  readonly longest: number;

  constructor(needles: readonly Needle[]) {
    for (const needle of needles) {
      const length = needle.bytes.length;
      if (length === 0) continue;
      const hash = hashOf(needle.bytes, 0, length);
      const byHash = this.byLength.get(length) ?? new Map<number, Needle[]>();
      byHash.set(hash, [...(byHash.get(hash) ?? []), needle]);
      this.byLength.set(length, byHash);
      this.mark(length, hash);
    }
    this.longest = Math.max(0, ...this.byLength.keys());
  }

  /** Adds to `found` the label of every string that occurs in `bytes`. */
  labelsIn(bytes: Buffer, found: Set<string>): void {
    for (const [length, byHash] of this.byLength) {
      if (bytes.length < length) continue;
      // BASE^(length-1), to take the byte leaving the window out of the hash.
      let high = 1;
      for (let i = 1; i < length; i++) high = Math.imul(high, BASE);
      let hash = hashOf(bytes, 0, length);
      for (let start = 0; ; start++) {
        if (this.marked(length, hash))
          for (const needle of byHash.get(hash) ?? [])
            if (bytes.compare(needle.bytes, 0, length, start, start + length) === 0) found.add(needle.label);
        if (start + length >= bytes.length) break;
        hash = (Math.imul(hash - Math.imul(bytes[start]!, high), BASE) + bytes[start + length]!) >>> 0;
      }
    }
  }

  private bit(length: number, hash: number): number {
    return (hash ^ Math.imul(length, 0x9e3779b1)) >>> 8;
  }
  private mark(length: number, hash: number): void {
    const bit = this.bit(length, hash);
    this.bitmap[bit >>> 5]! |= 1 << (bit & 31);
  }
  private marked(length: number, hash: number): boolean {
    const bit = this.bit(length, hash);
    return (this.bitmap[bit >>> 5]! & (1 << (bit & 31))) !== 0;
  }
}

function hashOf(bytes: Buffer, start: number, length: number): number {
  let hash = 0;
  for (let i = start; i < start + length; i++) hash = (Math.imul(hash, BASE) + bytes[i]!) >>> 0;
  return hash;
}
