/** Id codecs (DESIGN.md, "Ids"). */
import { randomBytes, randomUUID } from 'node:crypto';

/** A new 24-hex id: 4 bytes of seconds since the epoch, then 8 random bytes (sorts by creation). */
export function newHexId(now = Date.now()): string {
  const buf = Buffer.alloc(12);
  buf.writeUInt32BE(Math.floor(now / 1000), 0);
  randomBytes(8).copy(buf, 4);
  return buf.toString('hex');
}

/** The `_id_web` codec is part of the contract (its shape is), kept in contracts for the pure packages. */
export { hexIdFromWebId, webIdFromHexId } from '@docflow/contracts';

/** A new principal id: `usr-` and a random UUID. */
export function newUsrId(): string {
  return `usr-${randomUUID()}`;
}
