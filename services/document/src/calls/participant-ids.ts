/**
 * Participants named by e-mail in a form are kept as `usr-` ids: when the form is defined and again
 * when a document is created from it, so no person's e-mail is copied into a form, document or
 * workflow event (or their topics), and an erasure leaves none behind. When a document is created, an
 * address no account holds (yet) stays as it is: the workflow resolves it when its phase starts, or
 * refuses the phase. A form is refused when it is defined with one (`withKnownParticipants`).
 */
import {
  type ResolvedAccount,
  resolveAccountsRoute,
  USR_ID_PATTERN,
  WORK_PHASES,
  type WorkflowConfig,
} from '@docflow/contracts';
import { internalClient, problems } from '@docflow/kit/http';
import type { CallContext, IdentityCalls } from './identity-calls';

/** What of a form names participants: its workflow's stages and its recognised parts' validators. */
interface NamesParticipants {
  workflow?: WorkflowConfig;
  recognition?: { validation?: { validators: string[] } };
}

/**
 * Every participant of `form` (stage participants, escalation contacts, validators), with where it
 * stands (JSON pointer of the request body).
 */
function participantsOf({ workflow, recognition }: NamesParticipants): { ref: string; pointer: string }[] {
  const staged = WORK_PHASES.flatMap(
    (phase) =>
      workflow?.[phase]?.stages.flatMap((stage, s) => {
        const at = `body.workflow.${phase}.stages.${s}`;
        return [
          ...stage.participants.map((ref, p) => ({ ref, pointer: `${at}.participants.${p}` })),
          ...(stage.deadline?.escalation?.contacts ?? []).map((ref, c) => ({
            ref,
            pointer: `${at}.deadline.escalation.contacts.${c}`,
          })),
        ];
      }) ?? [],
  );
  const validators = (recognition?.validation?.validators ?? []).map((ref, v) => ({
    ref,
    pointer: `body.recognition.validation.validators.${v}`,
  }));
  return [...staged, ...validators];
}

async function resolve(
  calls: IdentityCalls,
  ctx: CallContext,
  refs: string[],
): Promise<Record<string, ResolvedAccount>> {
  if (refs.length === 0) return {};
  const { accounts } = await internalClient(calls.identity, calls.internalToken).call(
    resolveAccountsRoute,
    { body: { refs: [...new Set(refs)] } },
    ctx,
  );
  return accounts;
}

/** `workflow` with each participant and contact replaced by `idOf` it, each stage without repeats. */
function mapWorkflow(workflow: WorkflowConfig, idOf: (ref: string) => string): WorkflowConfig {
  const mapped: WorkflowConfig = { ...workflow };
  const ids = (refs: readonly string[]) => [...new Set(refs.map(idOf))];
  for (const phase of WORK_PHASES) {
    const config = workflow[phase];
    if (config)
      mapped[phase] = {
        ...config,
        stages: config.stages.map((s) => {
          const escalation = s.deadline?.escalation;
          const contacts = escalation?.contacts;
          return {
            ...s,
            participants: ids(s.participants),
            ...(s.deadline && escalation && contacts
              ? { deadline: { ...s.deadline, escalation: { ...escalation, contacts: ids(contacts) } } }
              : {}),
          };
        }),
      };
  }
  return mapped;
}

/** `form` with each participant (stages and validators) replaced by `idOf` it. */
function mapParticipants<F extends NamesParticipants>(form: F, idOf: (ref: string) => string): F {
  const { workflow, recognition } = form;
  const validation = recognition?.validation;
  return {
    ...form,
    ...(workflow ? { workflow: mapWorkflow(workflow, idOf) } : {}),
    ...(recognition && validation
      ? {
          recognition: {
            ...recognition,
            validation: { ...validation, validators: [...new Set(validation.validators.map(idOf))] },
          },
        }
      : {}),
  };
}

/** `form` with every participant e-mail that names an account replaced by that account's id. */
export async function withParticipantIds<F extends NamesParticipants>(
  calls: IdentityCalls,
  ctx: CallContext,
  form: F,
): Promise<F> {
  const emails = participantsOf(form)
    .map((p) => p.ref)
    .filter((ref) => !USR_ID_PATTERN.test(ref));
  if (emails.length === 0) return form;
  const accounts = await resolve(calls, ctx, emails);
  return mapParticipants(form, (p) => accounts[p]?.id ?? p);
}

/**
 * `form` with every participant as its account's id; 422 naming each participant that is no person's
 * account (no account at all, or a service account, which is never given a task). A deactivated
 * person is accepted: the workflow refuses a phase only while one of its participants is inactive.
 */
export async function withKnownParticipants<F extends NamesParticipants>(
  calls: IdentityCalls,
  ctx: CallContext,
  form: F,
): Promise<F> {
  const participants = participantsOf(form);
  if (participants.length === 0) return form;
  const accounts = await resolve(
    calls,
    ctx,
    participants.map((p) => p.ref),
  );
  const unknown = participants.filter(({ ref }) => accounts[ref]?.kind !== 'person');
  if (unknown.length > 0)
    throw problems.nothingChanged(
      `the form names ${unknown.length} participant(s) that are no person's account: ${[...new Set(unknown.map((u) => u.ref))].join(', ')}`,
      'unknown-participant',
      'Unknown participant',
      unknown.map(({ ref, pointer }) => ({
        pointer,
        message: accounts[ref] ? `${ref} is a service account` : `no account ${ref}`,
      })),
    );
  return mapParticipants(form, (p) => accounts[p]!.id);
}
