/** The DocForm shape (@docflow/document-model), and `fields` / `embed` applied to it (DESIGN.md). */
import type { DocForm } from '@docflow/contracts';
import { type DocState, documentTitle, toDocForm as foldedDocForm } from '@docflow/document-model';
import { earliest, openTasks } from '@docflow/workflow-model';

export { toRecoData } from '@docflow/document-model';

/**
 * The document as the API answers it: the folded DocForm, its `title`, and its `datedue` brought
 * forward to its open tasks' (a stage deadline). Both stay out of the folded shape, which export bundles
 * hold and their verifier re-folds, so bundles made before them verify.
 */
export const toDocForm = (s: DocState): DocForm => ({
  ...foldedDocForm(s),
  datedue: documentDue(s),
  title: documentTitle(s),
});

/** The earliest of the document's own due date and its open tasks' (docs/decisions.md, "A task's due date"). */
const documentDue = (s: DocState): string =>
  earliest(s.datedue, ...openTasks(s.workflow).map((t) => t.dueAt ?? ''));

const ALWAYS_KEPT = ['_id', '_id_web'];

type Json = Record<string, unknown>;

/** Keeps the named fields of an embedded entity, or all of it when none of its fields is named. */
function filterEntity(entity: unknown, names: Set<string>): unknown {
  if (Array.isArray(entity)) return entity.map((e) => filterEntity(e, names));
  if (entity === null || typeof entity !== 'object') return entity;
  const keys = Object.keys(entity);
  if (!keys.some((k) => names.has(k))) return entity;
  return Object.fromEntries(Object.entries(entity).filter(([k]) => names.has(k)));
}

/**
 * `fields=a,b` keeps those top-level names (entities named in `embed` stay, filtered inside by the same
 * names); `_id` and `_id_web` always stay. Without `fields` the document is returned whole.
 */
export function selectFields(doc: Json, fields: string[] | undefined, embedded: string[]): Json {
  if (!fields?.length) return doc;
  const names = new Set(fields);
  const keep = new Set([...ALWAYS_KEPT, ...fields, ...embedded]);
  const out: Json = {};
  for (const [k, v] of Object.entries(doc)) {
    if (!keep.has(k)) continue;
    out[k] = embedded.includes(k) ? filterEntity(v, names) : v;
  }
  return out;
}
