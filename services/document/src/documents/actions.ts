/**
 * `embed=actions`: what the caller may do with a document now. Each answer comes from the code that
 * enforces the action: the workflow service decides its commands (workflowActions), and the data
 * change is tried with its own decide function on the state; reading a document is what lets one see
 * its history, verify and export it.
 */
import { type DocumentActions, wouldChange } from '@docflow/contracts';
import type { CallContext } from '../calls/identity-calls';
import { type WorkflowCalls, workflowActions } from '../calls/workflow-commands';
import { decideValidateReco } from './businessLogic';
import type { DocState } from './docForm';

/** @example body.actions = await documentActions(calls, ctx, doc); (`doc` as the caller may read it) */
export async function documentActions(
  calls: WorkflowCalls,
  ctx: CallContext,
  doc: DocState,
): Promise<DocumentActions> {
  const by = ctx.principal;
  return {
    ...(await workflowActions(calls, ctx, doc)),
    validateRecoData: doc.recoData.some((entry) =>
      wouldChange(() => decideValidateReco({ recoId: entry._id, valuesByTags: {}, by }, null, doc)),
    ),
    download: doc.files.length > 0,
    history: true,
    verify: true,
    export: true,
  };
}
