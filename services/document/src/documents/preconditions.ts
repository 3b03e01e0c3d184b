/**
 * Conditional requests on a document (RFC 9110, section 13): its entity tag is the strong tag of its
 * revision, `"<_meta._rev>"`. `If-None-Match` on a read answers 304 when the caller holds that
 * revision; `If-Match` on a write refuses with 412 once the document has moved on, also when it moves
 * on while the write runs.
 */
import { problems } from '@docflow/kit/http';

/** The entity tag of a document at `rev`. */
export const etagOf = (rev: number): string => `"${rev}"`;

const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/** The members of an If-Match / If-None-Match list; `*` stays `*`, an ill-formed member matches nothing. */
function members(header: string): string[] {
  return header
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m === '*' || ENTITY_TAG.test(m));
}

/** If-None-Match (weak comparison): true when the caller's copy is current and 304 is the answer. */
export function notModified(ifNoneMatch: string | undefined, rev: number): boolean {
  if (ifNoneMatch === undefined) return false;
  const tag = etagOf(rev);
  return members(ifNoneMatch).some((m) => m === '*' || m.replace(/^W\//, '') === tag);
}

/**
 * If-Match (strong comparison; a weak tag never matches): throws 412 unless the document is still at
 * a revision the caller names. Answers whether the header pins that revision (a tag names it, not
 * just `*`): the write must then hold at its append too, not only here, or a concurrent request with
 * the same tag would slip in between. Without the header nothing is checked.
 */
export function requireIfMatch(ifMatch: string | undefined, rev: number): boolean {
  if (ifMatch === undefined) return false;
  const tag = etagOf(rev);
  const named = members(ifMatch);
  if (named.includes(tag)) return true;
  if (named.includes('*')) return false;
  throw problems.preconditionFailed(
    `the document is at revision ${rev} (ETag ${tag}), not the one If-Match names: read it again`,
  );
}
