/** A document named in a path: `_id` (24 hex) or `_id_web`. */
import { HEX24_PATTERN } from '@docflow/contracts';
import { hexIdFromWebId } from '@docflow/kit';
import { problems } from '@docflow/kit/http';

/** `_id` (24 hex) or `_id_web`; anything else names no document. */
export function resolveDocId(raw: string): string {
  if (HEX24_PATTERN.test(raw)) return raw;
  const id = hexIdFromWebId(raw);
  if (!id) throw problems.notFound('no such document');
  return id;
}
