/** Id codecs (DESIGN.md, "Ids"). */
import { randomBytes, randomUUID } from 'node:crypto';

/** A new 24-hex id: 4 bytes of seconds since the epoch, then 8 random bytes (sorts by creation). */
export function newHexId(now = Date.now()): string {
  const buf = Buffer.alloc(12);
  buf.writeUInt32BE(Math.floor(now / 1000), 0);
  randomBytes(8).copy(buf, 4);
  return buf.toString('hex');
}

/** `_id_web`: the same 12 bytes in base64url, 16 URL-safe characters, so no lookup table is needed. */
export function webIdFromHexId(id: string): string {
  return Buffer.from(id, 'hex').toString('base64url');
}

const WEB_ID_PATTERN = /^[A-Za-z0-9_-]{16}$/;

/** The 24-hex id for a `_id_web`, or undefined when the string is not a web id. */
export function hexIdFromWebId(webId: string): string | undefined {
  if (!WEB_ID_PATTERN.test(webId)) return undefined;
  return Buffer.from(webId, 'base64url').toString('hex');
}

/** A new principal id: `usr-` and a random UUID. */
export function newUsrId(): string {
  return `usr-${randomUUID()}`;
}
