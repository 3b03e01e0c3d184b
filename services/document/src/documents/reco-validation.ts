/**
 * What a recorded recognition result asks of validation (issue 34), pure: each part whose every value
 * cleared the form's `autoValidateAt` is validated by recognition itself; the others wait in one
 * validation task for the form's validators. A form that says nothing of validation asks nothing.
 */
import type { DocumentEvent, RecognizedPart } from '@docflow/contracts';
import { clearsThreshold, type RecoValidationPolicy } from '@docflow/document-model';

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
