/**
 * The workflow service's internal API: the document service sends each workflow command of a
 * document, with the document's registration, and gets back the events it appended; and asks which
 * commands the caller may send now, decided by the same decideCommand.
 */
import {
  type DeputiesOf,
  type ResolvedAccount,
  resolveAccountsRoute,
  type WorkflowConfig,
  workflowActionsRoute,
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
import { openTasks } from '@docflow/workflow-model';
import { type Context, Hono } from 'hono';
import { workflowAggregate } from './aggregate';
import {
  allowedActions,
  type CommandContext,
  decideCommand,
  type ParticipantIds,
  participantsToResolve,
} from './businessLogic';
import type { Clock } from './scheduler/clock';

export interface WorkflowApiDeps {
  store: EventStore;
  identity: ServiceClient;
  internalToken: string;
  clock: Clock;
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

  /**
   * Everything a decision needs from outside, looked up first so the decision stays pure: the form's
   * participants as `usr-` ids, and the deputies of `assignees`.
   */
  async function commandContext(
    c: Context<ServiceEnv>,
    workflow: WorkflowConfig,
    assignees: string[],
    now: Date,
    named: string[] = [],
  ): Promise<CommandContext> {
    const refs = [...participantsToResolve(workflow), ...assignees, ...named];
    const accounts = await resolve(c, [...new Set(refs)]);
    const participants: ParticipantIds = Object.fromEntries(
      Object.entries(accounts)
        .filter(([, a]) => a.kind === 'person' && a.active)
        .map(([ref, a]) => [ref, a.id]),
    );
    const deputiesOf: DeputiesOf = Object.fromEntries(
      assignees.map((assignee) => [assignee, accounts[assignee]?.deputy ?? undefined]),
    );
    const standIns: DeputiesOf = Object.fromEntries(
      Object.values(accounts).map((a) => [a.id, a.deputy ?? undefined]),
    );
    const principal = c.var.principal;
    return {
      at: now.toISOString(),
      newId: () => newHexId(),
      participants,
      standIns,
      deputiesOf,
      principal: { subject: principal.subject, roles: principal.roles, isServiceAccount: !principal.runAs },
    };
  }

  serveInternal(app, workflowCommandRoute, async (c, { params: { docId }, body }) => {
    const { registration, command, expectedRevision } = body;
    const stream = workflowStream(docId);
    const now = deps.clock.now();
    let assignees: string[] = [];
    // The person a task is handed to is resolved like the form's participants (to a `usr-` id).
    const named = command.kind === 'reassign' ? [command.to] : [];
    if (command.kind === 'answer') {
      const { state } = await loadAggregate(store, stream, workflowAggregate);
      const assignee = state.tasks[command.respId]?.assignee;
      if (assignee) assignees = [assignee];
    }
    const ctx = await commandContext(c, registration.workflow, assignees, now, named);
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
        return decideCommand({ docId, ...registration, at: ctx.at }, command, ctx, state);
      },
      commandMetadata(c.var.principal, c.var, now),
    );
    return {
      events: result.events.map((e, i) => ({ id: result.ids[i]!, type: e.type, data: e.data })),
    };
  });

  serveInternal(app, workflowActionsRoute, async (c, { params: { docId }, body: { registration } }) => {
    const { state } = await loadAggregate(store, workflowStream(docId), workflowAggregate);
    const assignees = openTasks(state).map((t) => t.assignee);
    const ctx = await commandContext(c, registration.workflow, assignees, deps.clock.now());
    return allowedActions({ docId, ...registration, at: ctx.at }, ctx, state);
  });

  return app;
}
