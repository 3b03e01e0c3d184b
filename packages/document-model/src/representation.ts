/** The contract's DocForm shape of a document and its recoData entries, as GET shows them (DESIGN.md). */
import { type DocForm, type RecoData, STATE_CODES, STATUS_CODES, webIdFromHexId } from '@docflow/contracts';
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
    ...(e.validatedBy ? { validatedBy: e.validatedBy } : {}),
    ...(e.autoValidateAt === undefined ? {} : { autoValidateAt: e.autoValidateAt }),
    recoForm: e.recoForm,
    valuesByTags: e.valuesByTags,
    recoResult: { recoForm: e.recoForm, recoFormConfidence: e.confidence },
    ...(e.fieldsByTags ? { fieldsByTags: e.fieldsByTags } : {}),
    fileId: e.fileId,
  }));
}
