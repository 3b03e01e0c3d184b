/** Id shapes shared by every service (DESIGN.md, "Ids"). */
import { z } from '@hono/zod-openapi';

/** `usr-` followed by 8-4-4-4-12 lowercase hex: the shape only, not a UUID version. */
export const USR_ID_PATTERN = /^usr-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Full document, attachment and response ids: 24 lowercase hex characters. */
export const HEX24_PATTERN = /^[0-9a-f]{24}$/;

export const UsrId = z
  .string()
  .regex(USR_ID_PATTERN, 'must be usr- followed by 8-4-4-4-12 lowercase hex')
  .openapi({ example: 'usr-3f2b8c1e-9d4a-4c7e-8b1f-2a6d5e7c9b01' });

export const Hex24Id = z
  .string()
  .regex(HEX24_PATTERN, 'must be 24 lowercase hex characters')
  .openapi({ example: '65a1f0c2b3d4e5f601234567' });

export const Timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-22T19:20:51.000Z' });

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
