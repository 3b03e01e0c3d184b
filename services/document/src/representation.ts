/** The contract's DocForm shape of a document, and `fields` / `embed` applied to it (DESIGN.md). */
import { type DocForm, type RecoData, STATE_CODES, STATUS_CODES } from '@docflow/contracts';
import { webIdFromHexId } from '@docflow/kit';
import type { DocState } from './docForm';

export function toDocForm(s: DocState): DocForm {
  return {
    _id: s.id,
    _id_web: webIdFromHexId(s.id),
    _meta: { _created: s.created, _lastmodified: s.lastModified, _rev: s.rev },
    form: s.form,
    author: s.author,
    state: STATE_CODES[s.phase],
    step: s.step,
    iteration: s.iteration,
    status: STATUS_CODES[s.status],
    formsystype: s.formsystype,
    datecreated: s.created,
    datedue: s.datedue,
    valuesByTags: s.valuesByTags,
    _tags: s.tags,
    filesList: s.files.map((f) => ({ id: f.id, fileName: f.fileName })),
    recoStatus: recoStatusOf(s),
  };
}

function recoStatusOf(s: DocState): DocForm['recoStatus'] {
  if (s.recoPending.length) return 'pending';
  if (s.recoFailed.length) return 'failed';
  return s.recoData.length || s.recoSourceIds.length ? 'done' : 'none';
}

export function toRecoData(s: DocState): RecoData[] {
  return s.recoData.map((e) => ({
    _id: e._id,
    pageIdxStart: e.pageIdxStart,
    pageIdxEnd: e.pageIdxEnd,
    validated: e.validated,
    recoForm: e.recoForm,
    valuesByTags: e.valuesByTags,
    recoResult: { recoForm: e.recoForm, recoFormConfidence: e.confidence },
    fileId: e.fileId,
  }));
}

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
