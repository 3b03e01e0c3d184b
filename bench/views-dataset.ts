/**
 * The shape of the view benchmark's documents, decided by each document's number alone (so a seed can
 * stop and resume anywhere): who authors it, its form, tags and workflow template, and its time.
 *
 * - authors: the admin 2%, bob (a non-admin person) 1% (as many as the tag `audit`), the rest spread
 *   over AUTHORS synthetic people, a few of them prolific (the document number squared picks them);
 * - forms: memo, invoice, contract (one in three each, contract has no workflow);
 * - tags: one to three of TAGS tags, skewed (`t0` on about a fifth), plus `audit` on 1%;
 * - workflow: a draft, approval running (an open task), execution running, or archived — the task's
 *   assignee one of PARTICIPANTS people (bob among them: his inbox and `all` hold others' documents);
 * - created: a minute apart, so listings order by a real spread of times.
 */

/** Synthetic authors and participants: `usr-` ids of people who never log in here. */
export const AUTHORS = 5_000;
export const PARTICIPANTS = 400;
export const TAGS = 500;
/** The tag on exactly 1 in 100 documents, as many as bob authors: `all?tags=audit` as bob. */
export const AUDIT_TAG = 'audit';
const AUDIT_EVERY = 100;
const BOB_EVERY = 100;
const ADMIN_EVERY = 50;
/** Bob is the assignee of 1 in BOB_TASK_EVERY tasks. */
const BOB_TASK_EVERY = 40;
const MINUTE_MS = 60_000;
export const FIRST_CREATED_MS = Date.parse('2024-01-01T00:00:00.000Z');

/** The workflow templates, each created once through the API (see seed-views.ts). */
export const TEMPLATES = ['draft', 'approval', 'execution', 'archived'] as const;
export type TemplateName = (typeof TEMPLATES)[number];
export const FORMS = ['memo', 'invoice', 'contract'] as const;

export type Author = { kind: 'admin' } | { kind: 'bob' } | { kind: 'synthetic'; id: string };
export type Assignee = { kind: 'bob' } | { kind: 'synthetic'; id: string };

export interface DocumentShape {
  form: (typeof FORMS)[number];
  template: TemplateName;
  author: Author;
  /** Who the template's open task (if any) goes to. */
  assignee: Assignee;
  tags: string[];
  createdMs: number;
}

/** A small deterministic hash of a number (xorshift-multiply), spread over 32 bits. */
function mix(n: number, salt: number): number {
  let x = (n ^ (salt * 0x9e3779b1)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d) >>> 0;
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

/** A `usr-` id in the system's shape, the same for the same kind and number. */
export function syntheticUser(kind: 'author' | 'participant', n: number): string {
  const hex = (mix(n, kind === 'author' ? 11 : 13).toString(16) + n.toString(16))
    .padStart(12, '0')
    .slice(-12);
  return `usr-${kind === 'author' ? 'a0000000' : 'b0000000'}-0000-4000-8000-${hex}`;
}

/** A skewed pick in [0, n): small numbers far more often than large ones. */
function skewed(n: number, salt: number, i: number): number {
  const u = mix(i, salt) / 2 ** 32;
  return Math.min(n - 1, Math.floor(n * u * u * u));
}

export function documentShape(i: number): DocumentShape {
  const form = FORMS[mix(i, 1) % FORMS.length]!;
  const roll = mix(i, 2) % 100;
  const template: TemplateName =
    form === 'contract'
      ? 'draft'
      : roll < 55
        ? 'draft'
        : roll < 80
          ? 'approval'
          : roll < 90
            ? 'execution'
            : 'archived';
  const author: Author =
    i % BOB_EVERY === 7
      ? { kind: 'bob' }
      : i % ADMIN_EVERY === 3
        ? { kind: 'admin' }
        : { kind: 'synthetic', id: syntheticUser('author', skewed(AUTHORS, 3, i)) };
  const assignee: Assignee =
    mix(i, 4) % BOB_TASK_EVERY === 0
      ? { kind: 'bob' }
      : { kind: 'synthetic', id: syntheticUser('participant', skewed(PARTICIPANTS, 5, i)) };
  const tags = new Set<string>();
  const count = 1 + (mix(i, 6) % 3);
  for (let k = 0; k < count; k++) tags.add(`t${skewed(TAGS, 7 + k, i)}`);
  if (i % AUDIT_EVERY === 42) tags.add(AUDIT_TAG);
  return { form, template, author, assignee, tags: [...tags], createdMs: FIRST_CREATED_MS + i * MINUTE_MS };
}
