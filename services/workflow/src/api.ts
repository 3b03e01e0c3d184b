/**
 * The workflow service's internal API: the document service sends each workflow command of a
 * document, with the document's registration, and gets back the events it appended.
 */
import {
  type DeputiesOf,
  type ResolvedAccount,
  resolveAccountsRoute,
  workflowCommandRoute,
  workflowStream,
} from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { newHexId } from '@docflow/kit';
import { commandMetadata, executeCommand, loadAggregate } from '@docflow/kit/eventsourcing';
import {
  internalClient,
  problems,
  type ServiceClient,
  type ServiceEnv,
  serveInternal,
} from '@docflow/kit/http';
import { foldWorkflow } from '@docflow/workflow-model';
import { type Context, Hono } from 'hono';
import { workflowAggregate } from './aggregate';
import {
  type DecisionInputs,
  decideAnswer,
  decideCreateAction,
  decideManage,
  decideRegister,
  type ParticipantIds,
  participantsToResolve,
} from './businessLogic';

export interface WorkflowApiDeps {
  store: EventStore;
  identity: ServiceClient;
  internalToken: string;
}

export function workflowApi(deps: WorkflowApiDeps): Hono<ServiceEnv> {
  const { store } = deps;
  const app = new Hono<ServiceEnv>();
  const identity = internalClient(deps.identity, deps.internalToken);

  async function resolve(c: Context<ServiceEnv>, refs: string[]): Promise<Record<string, ResolvedAccount>> {
    if (refs.length === 0) return {};
    const ctx = { principal: c.var.principal, ids: c.var };
    return (await identity.call(resolveAccountsRoute, { body: { refs } }, ctx)).accounts;
  }

  serveInternal(app, workflowCommandRoute, async (c, { params: { docId }, body }) => {
    const { registration, command, expectedRevision } = body;
    const stream = workflowStream(docId);
    const now = new Date();
    const at = now.toISOString();

    // Everything a decision needs from outside is looked up first, so the decision stays pure.
    const accounts = await resolve(c, participantsToResolve(registration.workflow));
    const participants: ParticipantIds = Object.fromEntries(
      Object.entries(accounts)
        .filter(([, a]) => a.kind === 'person' && a.active)
        .map(([ref, a]) => [ref, a.id]),
    );
    let deputiesOf: DeputiesOf = {};
    if (command.kind === 'answer') {
      const { state } = await loadAggregate(store, stream, workflowAggregate);
      const assignee = state.tasks[command.respId]?.assignee;
      if (assignee)
        deputiesOf = { [assignee]: (await resolve(c, [assignee]))[assignee]?.deputy ?? undefined };
    }
    const inputs: DecisionInputs = { at, newId: () => newHexId(), participants };
    const principal = c.var.principal;

    const result = await executeCommand(
      store,
      stream,
      workflowAggregate,
      (state, revision) => {
        // On the state the events are appended to: a concurrent command that won makes this one 412.
        if (expectedRevision !== undefined && revision !== expectedRevision)
          throw problems.preconditionFailed(
            'the document moved on since the revision If-Match names: read it again',
          );
        const registered = decideRegister({ docId, ...registration, at }, state);
        const current = foldWorkflow(registered, state);
        const decided =
          command.kind === 'create'
            ? decideCreateAction({ ...inputs, taskstatus: command.taskstatus }, current)
            : command.kind === 'manage'
              ? decideManage(
                  {
                    ...inputs,
                    taskstatus: command.taskstatus,
                    principal: {
                      subject: principal.subject,
                      roles: principal.roles,
                      isServiceAccount: !principal.runAs,
                    },
                  },
                  current,
                )
              : decideAnswer({ ...inputs, ...command, caller: principal.subject, deputiesOf }, current);
        return decided.length ? [...registered, ...decided] : [];
      },
      commandMetadata(principal, c.var, now),
    );
    return {
      events: result.events.map((e, i) => ({ id: result.ids[i]!, type: e.type, data: e.data })),
    };
  });

  return app;
}
