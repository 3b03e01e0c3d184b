/**
 * A document's history in words, as a person reads it: who did what on whose behalf ("Bob Example
 * approved with the comment 'ok'. Phase: approval → sign"). Pure: the entries and a name lookup in,
 * one sentence or a few per entry out. Codes are named through the contract's tables.
 */
import {
  type DocumentEvent,
  parseDocumentEvent,
  parseWorkflowEvent,
  RESPONSE_TASK_STATUS,
  STATE_NAMES,
  STATUS_NAMES,
  type WorkflowEvent,
} from '@docflow/contracts';
import type { Change } from './changes';

/** What summarising reads of a history entry. */
export interface SummaryEntry {
  type: string;
  data: unknown;
  actor?: string;
  runAs?: string;
  correlationId?: string;
  changes: readonly Change[];
}

/** A person's or service account's display name by its id (the id itself when unknown). */
export type NameOf = (id: string) => string;

/** Past-tense verbs of the answers, by their names in RESPONSE_TASK_STATUS. */
const ANSWER_VERBS: Record<keyof typeof RESPONSE_TASK_STATUS, string> = {
  approve: 'approved',
  approveWithEdits: 'approved with edits',
  decline: 'declined',
  executionDone: 'reported the execution done',
  sign: 'signed',
};
const answerVerb = (taskstatus: number): string => {
  const name = Object.entries(RESPONSE_TASK_STATUS).find(([, code]) => code === taskstatus)?.[0];
  return name ? ANSWER_VERBS[name as keyof typeof RESPONSE_TASK_STATUS] : `answered ${taskstatus}`;
};

/** What a management move did, by the workflow event that records it. */
const MOVES: Partial<Record<WorkflowEvent['type'], string>> = {
  WorkflowSuspended: 'suspended the workflow',
  WorkflowResumed: 'resumed the workflow',
  WorkflowCancelled: 'cancelled the workflow',
  MovedToArchive: 'moved the document to the archive',
  MovedToRepository: 'moved the document to the repository',
  DocumentBlocked: 'blocked the document',
  DocumentDeleted: 'deleted the document',
};

/** All identifiers an entry names (actor, run-as, author, assignees, answerers): what to look up. */
export function namedIds(entries: readonly SummaryEntry[]): string[] {
  const ids = new Set<string>();
  for (const e of entries) {
    if (e.actor) ids.add(e.actor);
    if (e.runAs) ids.add(e.runAs);
    const event = parsed(e);
    if (event?.type === 'DocumentCreated') ids.add(event.data.author);
    if (event?.type === 'RecoValidationRequested') for (const v of event.data.validators) ids.add(v);
    for (const w of event?.type === 'WorkflowChanged' ? workflowEvents(event) : []) {
      if (w.type === 'TaskOpened') {
        ids.add(w.data.assignee);
        if (w.data.onBehalfOf) ids.add(w.data.onBehalfOf);
      }
      if (w.type === 'TaskReassigned') ids.add(w.data.from).add(w.data.to);
      if (w.type === 'TaskAnswered') {
        ids.add(w.data.answeredBy);
        if (w.data.onBehalfOf) ids.add(w.data.onBehalfOf);
      }
      if (w.type === 'TasksEscalated') for (const id of w.data.to) ids.add(id);
    }
  }
  return [...ids];
}

function parsed(entry: SummaryEntry): DocumentEvent | undefined {
  try {
    return parseDocumentEvent(entry.type, entry.data);
  } catch {
    return undefined;
  }
}

/** The workflow facts a WorkflowChanged records; one that no longer parses is left out. */
function workflowEvents(event: DocumentEvent & { type: 'WorkflowChanged' }): WorkflowEvent[] {
  return event.data.events.flatMap((e) => {
    try {
      return [parseWorkflowEvent(e.type, e.data)];
    } catch {
      return [];
    }
  });
}

/** How much of a comment the history quotes; the thread has it whole. */
const COMMENT_SHOWN = 200;
const quoted = (text: string) => `'${text}'`;
const listed = (names: readonly string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/** A value of a document field in a sentence: strings as they are, a table by its size. */
function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  if (typeof value === 'string') return value === '' ? "''" : value;
  if (Array.isArray(value)) return `a table of ${value.length} row${value.length === 1 ? '' : 's'}`;
  return JSON.stringify(value);
}

/** "total 209.50 → 209.55" for each changed value, "tags: a → a, b" for the tags. */
function fieldEdits(changes: readonly Change[]): string[] {
  return changes.flatMap((c) => {
    if (c.path === '/_tags')
      return [
        `tags: ${shown((c.before as string[] | undefined)?.join(', '))} → ${shown((c.after as string[] | undefined)?.join(', '))}`,
      ];
    const tag = /^\/valuesByTags\/(.+)$/.exec(c.path)?.[1];
    return tag === undefined
      ? []
      : [`${tag.replaceAll('~1', '/').replaceAll('~0', '~')} ${shown(c.before)} → ${shown(c.after)}`];
  });
}

/** "Phase: approval → sign", "Status: in progress → completed", "Step: 1 → 2", from the entry's changes. */
function codeChanges(changes: readonly Change[]): string[] {
  const change = (path: string) => changes.find((c) => c.path === path);
  const named = (label: string, names: Readonly<Record<number, string>>, c: Change | undefined) =>
    c
      ? [
          `${label}: ${names[c.before as number] ?? shown(c.before)} → ${names[c.after as number] ?? shown(c.after)}`,
        ]
      : [];
  const state = change('/state');
  const step = change('/step');
  return [
    ...named('Phase', STATE_NAMES, state),
    // A new step within the same phase; a new phase starts at step 1 anyway.
    ...(step && !state && typeof step.after === 'number' && step.after > 0
      ? [`Step: ${step.before} → ${step.after}`]
      : []),
    ...named('Status', STATUS_NAMES, change('/status')),
  ];
}

/**
 * The summary of every entry, oldest first. `nameOf` names the ids; an entry recorded with run-as
 * reads "<service account> on behalf of <person> …". Edits made with an answer (the same request)
 * read "<who> signed with edits: total 209.50 → 209.55".
 */
export function summariseHistory(entries: readonly SummaryEntry[], nameOf: NameOf): string[] {
  const seen: Seen = { answers: new Map(), fileNames: new Map() };
  return entries.map((entry) => {
    const who = entry.actor
      ? entry.runAs && entry.runAs !== entry.actor
        ? `${nameOf(entry.actor)} on behalf of ${nameOf(entry.runAs)}`
        : nameOf(entry.actor)
      : 'docflow';
    const event = parsed(entry);
    return event
      ? summary(event, entry, who, nameOf, seen)
      : `${entry.type} (recorded in a form this version does not read)`;
  });
}

/** What earlier entries tell later ones: the answer of each request, the attachments' names. */
interface Seen {
  answers: Map<string, string>;
  fileNames: Map<string, string>;
}

function summary(event: DocumentEvent, entry: SummaryEntry, who: string, nameOf: NameOf, seen: Seen): string {
  const { answers, fileNames } = seen;
  switch (event.type) {
    case 'DocumentCreated': {
      for (const f of event.data.files) fileNames.set(f.id, f.fileName);
      const forAuthor =
        event.data.author === (entry.runAs ?? entry.actor) ? '' : ` for ${nameOf(event.data.author)}`;
      const files = event.data.files.length;
      return `${who} created the document${forAuthor}${files ? ` with ${files} file${files === 1 ? '' : 's'}` : ''}`;
    }
    case 'WorkflowChanged': {
      const sentences = workflowSentences(workflowEvents(event), who, nameOf, entry.runAs ?? entry.actor);
      if (sentences.answer && entry.correlationId) answers.set(entry.correlationId, sentences.answer);
      return [...sentences.acts, ...codeChanges(entry.changes), ...sentences.after].join('. ');
    }
    case 'DocumentFieldsUpdated': {
      const edits = fieldEdits(entry.changes);
      const answer = entry.correlationId ? answers.get(entry.correlationId) : undefined;
      const verb = answer ? (answer.endsWith('with edits') ? answer : `${answer} with edits`) : 'edited';
      return `${who} ${verb}${edits.length ? `: ${edits.join(', ')}` : ''}`;
    }
    case 'CommentAdded': {
      const text = event.data.text;
      return `${who} commented: ${quoted(text.length > COMMENT_SHOWN ? `${text.slice(0, COMMENT_SHOWN)}…` : text)}`;
    }
    case 'RecoDataValidated': {
      const tags = Object.keys(event.data.valuesByTags);
      if (event.data.by === 'recognition')
        return `Recognised values${tags.length ? ` (${tags.join(', ')})` : ''} validated automatically (all values \u2265 ${event.data.threshold ?? 0})`;
      return `${who} validated recognised values${tags.length ? ` (${tags.join(', ')})` : ''}`;
    }
    case 'RecoValidationRequested': {
      const parts = event.data.recoIds.length;
      return `${parts === 1 ? 'Recognised values wait' : `${parts} recognised parts wait`} for validation by ${listed(event.data.validators.map(nameOf))}`;
    }
    case 'RecognitionRecorded': {
      const parts = event.data.parts.map((p) => `${p.recoForm.name} (${Math.round(p.confidence)}%)`);
      return `Recognition read ${fileName(fileNames, event.data.fileId)}: ${parts.length ? listed(parts) : 'no known form'}`;
    }
    case 'RecognitionFailed':
      return `Recognition could not read ${fileName(fileNames, event.data.fileId)}: ${event.data.reason}`;
    case 'RecognitionTextRecorded':
      return `The text of ${fileName(fileNames, event.data.fileId)} was recorded for search`;
  }
}

const fileName = (names: ReadonlyMap<string, string>, id: string) => quoted(names.get(id) ?? id);

/**
 * The sentences of one command's workflow facts: what `who` did (`acts`, with the answer's verb kept
 * for edits that follow), and whom the new tasks wait for (`after`).
 */
function workflowSentences(
  events: readonly WorkflowEvent[],
  who: string,
  nameOf: NameOf,
  whoId: string | undefined,
): { acts: string[]; after: string[]; answer?: string } {
  const acts: string[] = [];
  const waiting: string[] = [];
  let answer: string | undefined;
  for (const e of events) {
    switch (e.type) {
      case 'TaskAnswered': {
        answer = answerVerb(e.data.taskstatus);
        if (e.data.automatic) {
          acts.push(`${nameOf(e.data.answeredBy)}'s task was ${answer} automatically`);
          break;
        }
        const deputy = e.data.onBehalfOf ? `, deputy of ${nameOf(e.data.onBehalfOf)},` : '';
        const comment = e.data.content ? ` with the comment ${quoted(e.data.content)}` : '';
        acts.push(`${who}${deputy} ${answer}${comment}`);
        break;
      }
      case 'PhaseStarted':
        // A phase that follows a completed one starts by itself; any other start is the caller's move.
        if (!events.some((x) => x.type === 'PhaseCompleted'))
          acts.push(`${who} ${e.data.iteration > 1 ? 'restarted' : 'started'} ${e.data.phase}`);
        break;
      case 'TaskOpened':
        waiting.push(
          e.data.onBehalfOf
            ? `${nameOf(e.data.assignee)} on behalf of ${nameOf(e.data.onBehalfOf)}, who is away`
            : nameOf(e.data.assignee),
        );
        break;
      case 'TaskReassigned': {
        // "handed the approval" when it was their own task, "handed Bob Example's approval" otherwise.
        const phase = events.find((x) => x.type === 'TaskOpened')?.data.phase ?? 'task';
        const whose = e.data.from === whoId ? 'the' : `${nameOf(e.data.from)}'s`;
        acts.push(`${who} handed ${whose} ${phase} to ${nameOf(e.data.to)}: ${e.data.reason}`);
        break;
      }
      case 'TasksCancelled': {
        const tasks = `${e.data.respIds.length} open task${e.data.respIds.length === 1 ? '' : 's'}`;
        acts.push(
          e.data.reason === 'quorum'
            ? `The stage reached its quorum: ${tasks} closed`
            : `${tasks} cancelled (${e.data.reason})`,
        );
        break;
      }
      case 'TasksDueSoon':
      case 'TasksOverdue':
      case 'TasksEscalated':
        acts.push(deadlineSentence(e, nameOf));
        break;
      default: {
        const move = MOVES[e.type];
        if (move) acts.push(`${who} ${move}`);
      }
    }
  }
  return { acts, after: waiting.length ? [`Waiting for ${listed(waiting)}`] : [], answer };
}

const tasks = (n: number) => `${n} open task${n === 1 ? '' : 's'}`;
const ESCALATIONS = {
  notify: 'escalated to',
  reassign: 'reassigned to',
  addParticipants: 'escalated by adding',
  autoAnswer: 'escalated',
} as const;

/** A stage deadline's fact (issue 36): the reminder, the deadline passing, the escalation and why. */
function deadlineSentence(
  e: Extract<WorkflowEvent, { type: 'TasksDueSoon' | 'TasksOverdue' | 'TasksEscalated' }>,
  nameOf: NameOf,
): string {
  const n = e.data.respIds.length;
  switch (e.type) {
    case 'TasksDueSoon':
      return `Reminder: ${tasks(n)} of step ${e.data.step} due by ${e.data.dueAt}`;
    case 'TasksOverdue':
      return `${tasks(n)} of step ${e.data.step} overdue since ${e.data.dueAt}`;
    case 'TasksEscalated': {
      const to = e.data.to.length ? ` ${listed(e.data.to.map(nameOf))}` : '';
      return `${tasks(n)} ${ESCALATIONS[e.data.action]}${to} (${e.data.reason})`;
    }
  }
}
