/**
 * What a recorded recognition result asks of validation (issue 34), pure: each part whose every value
 * cleared the form's `autoValidateAt` is validated by recognition itself; the others wait in one
 * validation task for the form's validators. A form that says nothing of validation asks nothing.
 */
import {
  type DocumentEvent,
  MANAGEMENT_TASK_STATUS,
  type RecognizedPart,
  rejections,
} from '@docflow/contracts';
import { clearsThreshold, type RecoValidationPolicy, validationOpen } from '@docflow/document-model';
import type { DocState } from './docForm';

export function decideRecoValidation(
  policy: RecoValidationPolicy | undefined,
  parts: readonly RecognizedPart[],
): DocumentEvent[] {
  if (!policy) return [];
  const events: DocumentEvent[] = [];
  const waiting: string[] = [];
  for (const part of parts) {
    if (clearsThreshold(part, policy))
      events.push({
        type: 'RecoDataValidated',
        data: {
          recoId: part._id,
          valuesByTags: part.valuesByTags,
          by: 'recognition',
          threshold: policy.autoValidateAt,
        },
      });
    else waiting.push(part._id);
  }
  if (waiting.length > 0)
    events.push({
      type: 'RecoValidationRequested',
      data: { recoIds: waiting, validators: policy.validators },
    });
  return events;
}

/** The phase each phase-starting move starts. */
const STARTS: Readonly<Record<number, 'approval' | 'sign' | 'execution'>> = {
  [MANAGEMENT_TASK_STATUS.startApproval]: 'approval',
  [MANAGEMENT_TASK_STATUS.startSign]: 'sign',
  [MANAGEMENT_TASK_STATUS.startExecution]: 'execution',
};

/**
 * Refuses (422) a move that would start the phase the form's `waitBefore` names while recognition is
 * still running or a recognised part waits for validation: the workflow waits for the validators.
 */
export function checkValidationHold(doc: DocState, taskstatus: number): void {
  const phase = STARTS[taskstatus];
  if (!phase || doc.recoValidation?.waitBefore !== phase) return;
  if (doc.recoPending.length > 0)
    throw rejections.notApplicable(`${phase} waits for recognition and the validation of its values`);
  if (doc.recoData.some(validationOpen))
    throw rejections.notApplicable(`${phase} waits for the validation of the recognised values`);
}
