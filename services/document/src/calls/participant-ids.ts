/**
 * Participants named by e-mail in a form are kept as `usr-` ids: when the form is defined and again
 * when a document is created from it, so no person's e-mail is copied into a form, document or
 * workflow event (or their topics), and an erasure leaves none behind. An address no account holds
 * (yet) stays as it is: the workflow resolves it when its phase starts, or refuses the phase.
 */
import { resolveAccountsRoute, USR_ID_PATTERN, WORK_PHASES, type WorkflowConfig } from '@docflow/contracts';
import { internalClient } from '@docflow/kit/http';
import type { CallContext, IdentityCalls } from './identity-calls';

const emailsOf = (workflow: WorkflowConfig): string[] => [
  ...new Set(
    WORK_PHASES.flatMap((phase) => workflow[phase]?.stages.flatMap((s) => s.participants) ?? []).filter(
      (p) => !USR_ID_PATTERN.test(p),
    ),
  ),
];

/** `form` with every participant e-mail that names an account replaced by that account's id. */
export async function withParticipantIds<F extends { workflow?: WorkflowConfig }>(
  calls: IdentityCalls,
  ctx: CallContext,
  form: F,
): Promise<F> {
  const { workflow } = form;
  const emails = workflow ? emailsOf(workflow) : [];
  if (!workflow || emails.length === 0) return form;
  const { accounts } = await internalClient(calls.identity, calls.internalToken).call(
    resolveAccountsRoute,
    { body: { refs: emails } },
    ctx,
  );
  const idOf = (p: string) => accounts[p]?.id ?? p;
  const resolved: WorkflowConfig = { ...workflow };
  for (const phase of WORK_PHASES) {
    const config = workflow[phase];
    if (config)
      resolved[phase] = {
        ...config,
        stages: config.stages.map((s) => ({ participants: [...new Set(s.participants.map(idOf))] })),
      };
  }
  return { ...form, workflow: resolved };
}
