/**
 * The DocForm as its events make it: the state and `evolve`, the contract's representation, and what an
 * event changed. Pure; depends on contracts and workflow-model only, so the offline verifier (the CLI)
 * folds a bundle exactly as the document service folds its stream.
 */
export { type Change, diffFields } from './changes';
export { type DocEventContext, type DocState, evolveDoc, initialDoc, type RecoEntry } from './docForm';
export { foldWithChanges, type RecordedDocEvent } from './fold';
export { clearsThreshold, type RecoValidationPolicy, recoValidationPolicy } from './reco-policy';
export { everValidators, validationAssignees, validationOpen } from './reco-validation';
export { toDocForm, toRecoData } from './representation';
export { type NameOf, namedIds, type SummaryEntry, summariseHistory } from './summary';
export { documentTitle } from './title';
