/** The DocForm resource, its create request and the view parameters (contract + DESIGN.md). */
import { z } from '@hono/zod-openapi';
import {
  ANSWER_TASK_STATUSES,
  CREATE_TASK_STATUSES,
  MANAGE_TASK_STATUSES,
  namedCodes,
  namedEnum,
  STATE_CODES,
  STATE_NAMES,
  STATUS_CODES,
  STATUS_NAMES,
  TASK_STATUS_NAMES,
} from './codes';
import { TAG_NAME_PATTERN } from './forms';
import { Hex24Id, Timestamp, UsrId } from './ids';
import { ocrLanguagesNotInstalled } from './ocr-languages';
import { Meta } from './person';
import { SEARCH_MAX_CHARS, searchWords } from './search';

/** A field value: a string, or a table (array of rows of strings). */
export const TagValue = z
  .union([z.string().max(100_000), z.array(z.array(z.string().max(10_000)).max(1000)).max(10_000)])
  .openapi('TagValue');
export type TagValue = z.infer<typeof TagValue>;

export const ValuesByTags = z.record(z.string().regex(TAG_NAME_PATTERN), TagValue).openapi('ValuesByTags');
export type ValuesByTags = z.infer<typeof ValuesByTags>;

export const DocTags = z.array(z.string().trim().min(1).max(100)).max(100);

export const FileEntry = z.object({ id: Hex24Id, fileName: z.string() }).openapi('FileEntry');

export const DocForm = z
  .object({
    _id: Hex24Id,
    _id_web: z
      .string()
      .openapi({ description: 'Short URL-safe id (16 characters); usable wherever `{id}` is.' }),
    _meta: Meta,
    form: z.string().openapi({ description: 'Name of the form the document was created from.' }),
    author: UsrId,
    state: z.number().int().openapi(namedEnum(STATE_NAMES)),
    step: z.number().int().openapi({ description: '1-based stage within the running phase, 0 when none.' }),
    iteration: z
      .number()
      .int()
      .openapi({ description: 'How many times the current phase has been started.' }),
    status: z.number().int().openapi(namedEnum(STATUS_NAMES)),
    formsystype: z.number().int(),
    datecreated: Timestamp,
    datedue: z.string().openapi({
      description:
        'ISO 8601 UTC, or an empty string when there is no due date: the earlier of the document\u2019s own ' +
        '(the form\u2019s `dueDays` after creation) and its open tasks\u2019 (a stage deadline).',
    }),
    valuesByTags: ValuesByTags,
    _tags: z.array(z.string()),
    filesList: z.array(FileEntry),
    recoStatus: z.enum(['none', 'pending', 'done', 'failed']).openapi({
      description:
        'Recognition of the attachments (extension): none (the form recognises nothing, or no files), ' +
        'pending (still running), done, failed (at least one attachment could not be read; see history).',
    }),
    title: z
      .string()
      .optional()
      .openapi({
        description:
          'What people call the document (extension): the value of its form\u2019s `titleField`, else the ' +
          'form\u2019s title and the creation date (`Internal memo, 2026-11-26`). Every answer of the ' +
          'document API carries it; an export bundle\u2019s document does not.',
        example: 'Budget 2027',
      }),
  })
  .openapi('DocForm');
export type DocForm = z.infer<typeof DocForm>;

/** The `docForm` part of the create request. */
export const DocFormCreate = z
  .strictObject({
    valuesByTags: ValuesByTags.default({}),
    author: UsrId.optional(),
    _tags: DocTags.default([]),
  })
  .openapi('DocFormCreate');
export type DocFormCreate = z.infer<typeof DocFormCreate>;

export const CreateDocResponse = z.strictObject({
  taskstatus: z
    .union(CREATE_TASK_STATUSES.map((n) => z.literal(n)) as [z.ZodLiteral<100>, ...z.ZodLiteral<number>[]], {
      error: `must be one of ${namedCodes(CREATE_TASK_STATUSES)}`,
    })
    .openapi({ description: namedCodes(CREATE_TASK_STATUSES) }),
});

/**
 * The most values a list query parameter takes (`form`, `author`, `tags`, `fields`, `embed`; the
 * languages of `idpLangs`), counted as written. A listing's SQL repeats its other conditions for each
 * value of the list that drives it (document views/planner.ts): at 100 each, the worst listing binds
 * about 20,000 values, below SQLite's 32,766 and its 500 terms of a compound SELECT.
 */
export const MAX_LIST_VALUES = 100;
const BOUND = `at most ${MAX_LIST_VALUES} values`;
/** A pattern of up to MAX_LIST_VALUES `item`s joined by `separator`. */
const listPattern = (item: string, separator = ',') =>
  `^${item}(${separator}${item}){0,${MAX_LIST_VALUES - 1}}$`;

const OCR_LANGUAGE_CODE = '[a-z]{3}(_[a-z]+)?';

/** A boolean query parameter, given as `true` or `false`. */
export const queryBool = z.enum(['true', 'false']).transform((v) => v === 'true');

export const CreateDocQuery = z.object({
  allowDupl: queryBool.default(true).openapi({ type: 'string', enum: ['true', 'false'] }),
  idpLangs: z
    .string()
    .regex(
      new RegExp(listPattern(OCR_LANGUAGE_CODE, '\\+')),
      `language codes joined by +, e.g. eng or eng+deu, ${BOUND}`,
    )
    .superRefine((idpLangs, ctx) => {
      const notInstalled = ocrLanguagesNotInstalled(idpLangs);
      if (notInstalled) ctx.addIssue({ code: 'custom', message: notInstalled });
    })
    .default('eng')
    .openapi({
      description: `OCR languages (the contract leaves the name open), joined by +, ${BOUND}.`,
    }),
  idpFrpr: queryBool.default(false).openapi({ type: 'string', enum: ['true', 'false'] }),
});

/** An integer query parameter given as text, within [min, max]. */
export const intParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .openapi({ type: 'integer', minimum: min, maximum: max });

/** A comma-separated list query parameter: its values trimmed, empty ones dropped; 400 past the bound. */
const csv = (description: string) =>
  z
    .string()
    .refine((s) => s.split(',').length <= MAX_LIST_VALUES, `${BOUND}, comma-separated`)
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .openapi({
      type: 'string',
      pattern: listPattern('[^,]*'),
      description: `${description} Comma-separated, ${BOUND}.`,
    });

export const VIEW_IDS = ['inbox', 'mydocs', 'all'] as const;
export const ViewId = z.enum(VIEW_IDS);
export type ViewId = z.infer<typeof ViewId>;

export const ViewQuery = z.object({
  first: intParam(0, 2147483646).default(0),
  pageSize: intParam(1, 100).default(10),
  state: intParam(0, 100)
    .optional()
    .openapi({ description: `Phase (state code): ${namedCodes(Object.values(STATE_CODES), STATE_NAMES)}.` }),
  step: intParam(0, 100).optional(),
  iteration: intParam(0, 100).optional(),
  status: intParam(1, 10)
    .optional()
    .openapi({ description: `Status code: ${namedCodes(Object.values(STATUS_CODES), STATUS_NAMES)}.` }),
  form: csv('Form name(s), combined with OR.').optional(),
  author: csv('Author system id(s), combined with OR.').optional(),
  tags: csv('Tag(s), combined with AND.').optional(),
  q: z
    .string()
    .min(1)
    .max(SEARCH_MAX_CHARS)
    .refine((q) => searchWords(q).length > 0, 'q holds no word (letters or digits) to search for')
    .optional()
    .openapi({
      description:
        'Full-text search (extension): the documents whose values, tags, attachment names or recognised ' +
        'attachment text hold every word of q (the last word also as a prefix), case and accents ignored; ' +
        'every other character separates words and has no meaning. Listed best match first (BM25), ties ' +
        'in the view\u2019s order; the other parameters filter as without q. A q without a letter or digit is 400.',
    }),
  embed: csv('`names`: each listed document names the accounts it names, as `embed=names` of a read does.')
    .pipe(z.array(z.enum(['names'])))
    .optional()
    .openapi({ type: 'string', enum: ['names'] }),
});
export type ViewQuery = z.infer<typeof ViewQuery>;

export const EMBED_NAMES = [
  'docResponse',
  'recoData',
  'recoResult',
  'valuesByTags',
  'filesList',
  'actions',
  'names',
] as const;
const EMBED_NAME = `(${EMBED_NAMES.join('|')})`;

export const DocQuery = z.object({
  fields: csv('Top-level fields to keep; also filters embedded entities.').optional(),
  embed: csv(`Entities to add: ${EMBED_NAMES.join(', ')}.`)
    .pipe(z.array(z.enum(EMBED_NAMES)))
    .optional()
    .openapi({ type: 'string', pattern: listPattern(EMBED_NAME) }),
  rev: intParam(1, 2147483646)
    .optional()
    .openapi({ description: 'The document as it was at this `_meta._rev`.' }),
  asOf: z.iso.datetime({ offset: true }).optional().openapi({
    description:
      'The document as it was at this instant (ISO 8601; by the time each event was decided, the history\u2019s `time`, so `_meta._created` gives revision 1); 404 before it was created.',
  }),
});
export type DocQuery = z.infer<typeof DocQuery>;

export const DocResponse = z
  .object({
    respId: Hex24Id,
    state: z.number().int().openapi(namedEnum(STATE_NAMES)),
    step: z.number().int(),
    iteration: z.number().int(),
    assignee: UsrId,
    onBehalfOf: UsrId.optional().openapi({
      description: 'The participant the assignee stands in for: absent when the task opened (extension).',
    }),
    taskstatus: z
      .number()
      .int()
      .openapi({ description: `0 while open, then the answer: ${namedCodes(ANSWER_TASK_STATUSES)}.` }),
    content: z.string(),
    datecreated: Timestamp,
    datedue: z.string().openapi({
      description:
        'ISO 8601 UTC, or an empty string: the earlier of its phase\u2019s due date and its stage\u2019s deadline.',
    }),
  })
  .openapi('DocResponse');
export type DocResponse = z.infer<typeof DocResponse>;

const oneOf = <T extends readonly number[]>(values: T) =>
  z
    .number()
    .int()
    .refine((n) => (values as readonly number[]).includes(n), `must be one of ${namedCodes(values)}`)
    .openapi(namedEnum(TASK_STATUS_NAMES, values));

export const ManageRequest = z
  .strictObject({
    docResponse: z.strictObject({
      taskstatus: oneOf(MANAGE_TASK_STATUSES),
      content: z.string().max(100_000).optional(),
    }),
  })
  .openapi('ManageRequest');

export const AnswerRequest = z
  .strictObject({
    docForm: z.strictObject({ valuesByTags: ValuesByTags.optional(), _tags: DocTags.optional() }).optional(),
    docResponse: z.strictObject({
      taskstatus: oneOf(ANSWER_TASK_STATUSES),
      content: z.string().max(100_000).default(''),
    }),
  })
  .openapi('AnswerRequest');
export type AnswerRequest = z.infer<typeof AnswerRequest>;

export const FieldChange = z
  .object({
    path: z
      .string()
      .openapi({ description: 'JSON Pointer (RFC 6901) into the document, e.g. `/valuesByTags/amount`.' }),
    before: z.unknown().optional().openapi({ description: 'Absent when the field was added.' }),
    after: z.unknown().optional().openapi({ description: 'Absent when the field was removed.' }),
  })
  .openapi('FieldChange');

/** A recorded event of a document as auditors read it (and as an export bundle keeps it). */
const RecordedEntry = z.object({
  rev: z.number().int(),
  type: z.string(),
  time: Timestamp,
  recordedAt: Timestamp.optional().openapi({
    description: 'When the store recorded the event; `time` is when it was decided (what `asOf` goes by).',
  }),
  actor: z.string().optional(),
  runAs: z.string().optional(),
  correlationId: z.string().optional(),
  causationId: z.string().optional(),
  traceId: z.string().optional().openapi({
    description:
      'The W3C trace id of the request that caused the event (its `traceparent`, or the one the service started): where its spans and log lines are found.',
  }),
  data: z.record(z.string(), z.unknown()),
  hash: z
    .string()
    .nullable()
    .openapi({ description: 'SHA-256 of the event in the chain (README, "For auditors").' }),
  prevHash: z
    .string()
    .nullable()
    .openapi({ description: 'The hash of the previous event (64 zeros for the first).' }),
  changes: z.array(FieldChange).openapi({ description: 'The document fields this event changed.' }),
});

/** An export bundle's history: no names, so none outlives an erasure in an exported file. */
export const BundleHistoryEntry = RecordedEntry.openapi('BundleHistoryEntry');

export const HistoryEntry = RecordedEntry.extend({
  summary: z.string().openapi({
    description:
      "The entry in words: who did what on whose behalf, e.g. `Bob Example approved with the comment 'ok'. " +
      'Phase: approval → sign`; people by their names as they are now (`[erased]` after an erasure).',
    example: "Bob Example approved with the comment 'ok'. Phase: approval → sign. Waiting for Carol Example",
  }),
}).openapi('HistoryEntry');

export const HistoryQuery = z.object({
  first: intParam(0, 2147483646).default(0).openapi({ description: '0-based index of the first entry.' }),
  pageSize: intParam(1, 1000)
    .optional()
    .openapi({ description: 'At most this many entries; all when absent.' }),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;
