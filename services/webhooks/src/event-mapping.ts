/**
 * From the document service's events (`docForm-<_id>` streams on the document topic: the document's
 * own events and the workflow and recognition facts recorded in it) to webhook events. Pure: the
 * little the mapping must remember of a document (its form and workflow position) goes in and out.
 */
import {
  DocumentEvents,
  type EventEnvelope,
  parseWorkflowEvent,
  STATE_CODES,
  STATUS_CODES,
  type WebhookEventType,
  type WebhookPayload,
  type WorkflowEvent,
} from '@docflow/contracts';
import { webIdFromHexId } from '@docflow/kit';
import { evolveWorkflow, initialWorkflow, type WorkflowState } from '@docflow/workflow-model';

/** What the mapping keeps of a document between its events. */
export type DocumentFacts = Pick<WorkflowState, 'form' | 'phase' | 'status' | 'step' | 'iteration'>;

export interface MappedEvent {
  /** Stable per source event: the bus message id and the index of the webhook event made from it. */
  sourceId: string;
  documentId: string;
  type: WebhookEventType;
  payload: WebhookPayload;
}

const DOC_STREAM = 'docForm-';
// Only what the mapping needs, so changes to the rest of the event do not concern this service.
const CreatedForm = DocumentEvents.DocumentCreated.pick({ form: true });
const initialFacts: DocumentFacts = {
  form: '',
  phase: 'registration',
  status: 'draft',
  step: 0,
  iteration: 0,
};

const position = (f: DocumentFacts) => ({
  state: STATE_CODES[f.phase],
  status: STATUS_CODES[f.status],
  step: f.step,
  iteration: f.iteration,
});
const samePosition = (a: DocumentFacts, b: DocumentFacts) =>
  a.phase === b.phase && a.status === b.status && a.step === b.step && a.iteration === b.iteration;

/** Workflow facts of a `WorkflowChanged`; a type this version does not know is passed over. */
function workflowEvents(data: Record<string, unknown>): WorkflowEvent[] {
  const { events } = DocumentEvents.WorkflowChanged.parse(data);
  return events.flatMap((e) => {
    try {
      return [parseWorkflowEvent(e.type, e.data)];
    } catch {
      return [];
    }
  });
}

type DeadlineEvent = Extract<WorkflowEvent, { type: 'TasksDueSoon' | 'TasksOverdue' | 'TasksEscalated' }>;
const DEADLINE_EVENTS: Record<DeadlineEvent['type'], WebhookEventType> = {
  TasksDueSoon: 'task.due_soon',
  TasksOverdue: 'task.overdue',
  TasksEscalated: 'task.escalated',
};

const isDeadlineEvent = (e: WorkflowEvent): e is DeadlineEvent => e.type in DEADLINE_EVENTS;

/** One webhook event per task a stage deadline's fact concerns (ids only, never the contacts). */
function deadlineEvents(e: DeadlineEvent): [WebhookEventType, Partial<WebhookPayload['data']>][] {
  const { step, iteration, respIds } = e.data;
  const extra = e.type === 'TasksEscalated' ? { escalation: e.data.action } : { dueAt: e.data.dueAt };
  return respIds.map((taskId) => [DEADLINE_EVENTS[e.type], { taskId, step, iteration, ...extra }]);
}

/**
 * The tasks opened in place of those closed by the hand-over at `events[i]` (a TaskReassigned, or a
 * reassigning TasksEscalated): the TaskOpened events that follow it, past the closing TasksCancelled.
 */
function openedInPlace(events: WorkflowEvent[], i: number): string[] {
  const opened: string[] = [];
  for (const e of events.slice(i + 1)) {
    if (e.type === 'TaskOpened') opened.push(e.data.respId);
    else if (e.type !== 'TasksCancelled') break;
  }
  return opened;
}

/**
 * One task.reassigned per task the hand-over at `events[i]` closed; none when it is no hand-over, or
 * nothing opened in the closed tasks' place (a batch that holds only the escalation's record).
 */
function reassignedEvents(events: WorkflowEvent[], i: number): Partial<WebhookPayload['data']>[] {
  const e = events[i]!;
  const closed =
    e.type === 'TaskReassigned'
      ? [e.data.respId]
      : e.type === 'TasksEscalated' && e.data.action === 'reassign'
        ? e.data.respIds
        : [];
  const newTaskIds = closed.length ? openedInPlace(events, i) : [];
  return newTaskIds.length ? closed.map((taskId) => ({ taskId, newTaskIds })) : [];
}

/**
 * The webhook events one bus message makes, in order, and the document's facts after it. Within a
 * workflow batch a task event comes after the state change that led to it (`task.answered`,
 * `document.state_changed` to the next phase, `task.opened`); intermediate positions are not reported.
 */
export function mapDocumentEvent(
  envelope: EventEnvelope,
  known: DocumentFacts | undefined,
): { facts: DocumentFacts; events: MappedEvent[] } | undefined {
  if (!envelope.streamId.startsWith(DOC_STREAM)) return undefined;
  const documentId = envelope.streamId.slice(DOC_STREAM.length);
  const before = known ?? initialFacts;
  const events: MappedEvent[] = [];
  const emit = (type: WebhookEventType, facts: DocumentFacts, extra: Partial<WebhookPayload['data']>) => {
    events.push({
      sourceId: `${envelope.id}/${events.length}`,
      documentId,
      type,
      payload: {
        type,
        timestamp: envelope.recordedAt,
        data: {
          documentId,
          idWeb: webIdFromHexId(documentId),
          form: facts.form,
          revision: envelope.revision,
          ...extra,
        },
      },
    });
  };

  switch (envelope.type) {
    case 'DocumentCreated': {
      const { form } = CreatedForm.parse(envelope.data);
      const facts = { ...initialFacts, form };
      emit('document.created', facts, position(facts));
      return { facts, events };
    }
    case 'RecognitionRecorded':
    case 'RecognitionFailed': {
      const fileId = String(envelope.data.fileId);
      emit('recognition.done', before, { fileId, recognized: envelope.type === 'RecognitionRecorded' });
      return { facts: before, events };
    }
    case 'CommentAdded': {
      // The id only: a receiver reads the text through the API, with the document's read access.
      emit('comment.added', before, { commentId: String(envelope.data.commentId) });
      return { facts: before, events };
    }
    case 'WorkflowChanged': {
      let state: WorkflowState = { ...initialWorkflow, ...before };
      let reported = before;
      const reportPosition = () => {
        if (samePosition(reported, state)) return;
        emit('document.state_changed', state, position(state));
        reported = state;
      };
      const batch = workflowEvents(envelope.data);
      for (const [i, event] of batch.entries()) {
        state = evolveWorkflow(state, event);
        if (event.type === 'TaskOpened') {
          reportPosition();
          const { respId, phase, step, iteration } = event.data;
          emit('task.opened', state, { taskId: respId, state: STATE_CODES[phase], step, iteration });
        } else if (event.type === 'TaskAnswered') {
          reportPosition();
          const { respId, taskstatus } = event.data;
          emit('task.answered', state, { taskId: respId, taskstatus });
        } else if (isDeadlineEvent(event)) {
          reportPosition();
          for (const [type, extra] of deadlineEvents(event)) emit(type, state, extra);
        }
        for (const extra of reassignedEvents(batch, i)) {
          reportPosition();
          emit('task.reassigned', state, { ...extra, step: state.step, iteration: state.iteration });
        }
      }
      reportPosition();
      const { form, phase, status, step, iteration } = state;
      return { facts: { form: form || before.form, phase, status, step, iteration }, events };
    }
    default:
      return { facts: before, events };
  }
}
