/** Form definitions (DESIGN.md, "Forms"): tags, workflow phases, recognition forms. */
import { z } from '@hono/zod-openapi';
import { escalationProblem, StageDeadline } from './deadlines';
import { fieldDeclarationProblem, fieldPattern, RecognitionField } from './field-declarations';
import { Participant } from './participant';
import { Meta } from './person';
import { RecognitionValidation } from './reco-validation';
import { userPatternProblem } from './user-pattern';

export const FORM_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const FormName = z
  .string()
  .regex(FORM_NAME_PATTERN, 'lowercase letters, digits, _ and -, at most 64')
  .openapi({ example: 'memo' });

export const TagKind = z.enum(['string', 'table']);
export const TAG_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

export { Participant };

/**
 * How many approvals complete a stage (docs/decisions.md, "Quorum"): every participant (`all`, the
 * default), any one (`any`), or a number N (at most the stage's participants).
 */
export const Quorum = z.union([z.enum(['all', 'any']), z.number().int().min(1).max(100)]);
export type Quorum = z.infer<typeof Quorum>;

export const Stage = z.strictObject({
  participants: z.array(Participant).min(1).max(100),
  deadline: StageDeadline.optional(),
  quorum: Quorum.optional(),
});

export const PHASES = ['approval', 'sign', 'execution', 'archive', 'repository'] as const;
export const Phase = z.enum(PHASES);
export type Phase = z.infer<typeof Phase>;

export const PhaseConfig = z.strictObject({
  stages: z.array(Stage).min(1).max(20),
  /** The phase that starts by itself when this one completes. */
  next: Phase.optional(),
});

export const WorkflowConfig = z.strictObject({
  approval: PhaseConfig.optional(),
  sign: PhaseConfig.optional(),
  execution: PhaseConfig.optional(),
  /** Days from creation to `datedue`; absent: no due date. */
  dueDays: z.number().int().min(0).max(3650).optional(),
  /**
   * What a decline does (docs/decisions.md, "Quorum"): `endPhase` (the default) declines the phase;
   * `countAgainstQuorum` only declines it once the stage's quorum can no longer be reached.
   */
  onDecline: z.enum(['endPhase', 'countAgainstQuorum']).optional(),
});
/** A form's `workflow` section. */
export type WorkflowConfig = z.infer<typeof WorkflowConfig>;

export const RecognitionForm = z.strictObject({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(200),
  /** Keywords that identify the form on a page (case-insensitive). */
  match: z
    .array(z.string().min(1).max(200))
    .min(1)
    .max(50)
    .openapi({
      description:
        'Keywords that identify the form on a page: whole words or phrases, case-insensitive, in any ' +
        'language. A page\u2019s keyword evidence is the number of distinct keywords found on it, full at ' +
        'two (min(found, 2) / 2; with one keyword: found / 1), not their share of the list, so listing the ' +
        'words of several languages does not lower a page\u2019s score. Field evidence likewise: the fields ' +
        'found, weighed by how well (0\u20131), full at four. Score = 100 \u00d7 (0.75 \u00d7 keyword evidence + ' +
        '0.25 \u00d7 field evidence); a page goes to the best form with a keyword on it and a score \u2265 50.',
    }),
  /**
   * Tag → RE2 regular expression whose first group is the value (case-insensitive; see user-pattern.ts),
   * or a field declared by type and labels (field-declarations.ts).
   */
  fields: z.record(z.string().regex(TAG_NAME_PATTERN), RecognitionField).default({}),
});

/**
 * A form definition as events carry it (`FormDefined`, `DocumentCreated`): the shape only. The checks
 * of FormDefinition ran when the form was defined, under the rules of that time; a definition recorded
 * then must stay readable even if a check grows stricter later (recognition skips a pattern it cannot run).
 */
export const RecordedFormDefinition = z.strictObject({
  name: FormName,
  title: z.string().min(1).max(200),
  formsystype: z.number().int().min(0).max(1_000_000),
  tags: z.record(z.string().regex(TAG_NAME_PATTERN, 'a tag name: letters, digits, _ . -'), TagKind),
  workflow: WorkflowConfig.optional(),
  recognition: z
    .strictObject({ forms: z.array(RecognitionForm).max(50), validation: RecognitionValidation.optional() })
    .optional(),
  titleField: z
    .string()
    .optional()
    .openapi({
      description:
        'The string tag whose value titles a document of this form (extension; e.g. `subject`). Without it, ' +
        'or while that value is empty, a document is titled by the form\u2019s title and its creation date.',
    }),
});

export type RecordedFormDefinition = z.infer<typeof RecordedFormDefinition>;

/** A form definition as `PUT /api/admin/v1/forms/{name}` accepts it. */
export const FormDefinition = RecordedFormDefinition.superRefine((form, ctx) => {
  for (const [i, rf] of (form.recognition?.forms ?? []).entries()) {
    for (const [tag, field] of Object.entries(rf.fields)) {
      const path = ['recognition', 'forms', i, 'fields', tag];
      const declared = fieldDeclarationProblem(field);
      if (declared) ctx.addIssue({ code: 'custom', path, message: declared });
      const pattern = typeof field === 'string' ? field : field.pattern;
      if (pattern === undefined) continue;
      // Compiled as recognition runs it: a table tag read by a pattern reads every line (multiline).
      const multiline = form.tags[tag] === 'table' && fieldPattern(field) !== undefined;
      const problem = userPatternProblem(pattern, { multiline });
      if (problem)
        ctx.addIssue({ code: 'custom', path, message: `not supported by the RE2 engine: ${problem}` });
    }
  }
  if (form.titleField !== undefined && form.tags[form.titleField] !== 'string')
    ctx.addIssue({ code: 'custom', path: ['titleField'], message: 'names no string tag of the form' });
  for (const phase of ['approval', 'sign', 'execution'] as const) {
    for (const [i, stage] of (form.workflow?.[phase]?.stages ?? []).entries())
      if (typeof stage.quorum === 'number' && stage.quorum > stage.participants.length)
        ctx.addIssue({
          code: 'custom',
          path: ['workflow', phase, 'stages', i, 'quorum'],
          message: `asks for ${stage.quorum} approvals of ${stage.participants.length} participants`,
        });
    const next = form.workflow?.[phase]?.next;
    if (next && next !== 'archive' && next !== 'repository' && !form.workflow?.[next])
      ctx.addIssue({
        code: 'custom',
        path: ['workflow', phase, 'next'],
        message: `names the phase ${next}, which is not configured`,
      });
    for (const [i, stage] of (form.workflow?.[phase]?.stages ?? []).entries()) {
      const problem = escalationProblem(phase, stage.deadline?.escalation);
      if (problem)
        ctx.addIssue({
          code: 'custom',
          path: ['workflow', phase, 'stages', i, 'deadline', 'escalation'],
          message: problem,
        });
    }
  }
}).openapi('FormDefinition');
export type FormDefinition = z.infer<typeof FormDefinition>;

/**
 * A form as GET and PUT answer it: one object of its definition's keys and `_meta`. (An intersection
 * with the strict FormDefinition would forbid `_meta` itself.)
 */
export const StoredForm = z.strictObject({ ...FormDefinition.shape, _meta: Meta }).openapi('StoredForm');

/**
 * What anyone who may create documents reads of a form (`GET /api/v2/forms`): what to call it and
 * which fields it has; not its workflow (who takes part) nor its recognition rules.
 */
export const FormSummary = RecordedFormDefinition.pick({
  name: true,
  title: true,
  formsystype: true,
  tags: true,
}).openapi('FormSummary');
export type FormSummary = z.infer<typeof FormSummary>;
