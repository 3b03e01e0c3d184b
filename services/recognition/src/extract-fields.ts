/**
 * The values of a recognised part, pattern fields and fields declared by type alike, each with how it
 * was found (`fieldsByTags`: confidence, raw text, page, box, label). Pure.
 *
 * - Pattern fields (a string, or `type: 'pattern'`) run as before (extract.ts); their confidence is the
 *   part's text confidence.
 * - A typed field: the best value of its type beside one of its labels (proximity.ts); else what the
 *   type finds unlabelled (unlabelled.ts: currency, IBAN, VAT id, party, and the document's first date
 *   for the form's first date field); else its `pattern`, the group
 *   normalised by the type. Numeric dates are read month first when the part says so (date.ts).
 * - A `table` field: line items by column alignment (table.ts).
 * - Cross-checks then raise or lower the confidences (cross-checks.ts); a receipt's total then takes
 *   the rounding adjustment below it (rounding.ts).
 * A field that finds nothing is left out of both maps.
 */
import type {
  FieldDeclaration,
  PageLayout,
  RecognizedField,
  TagKind,
  ValuesByTags,
} from '@docflow/contracts';
import type { z } from 'zod';
import { ambiguityFactor } from './ambiguity';
import { crossCheckFactors } from './cross-checks';
import { extractValuesSteps } from './extract';
import { fieldConfidence, recognizedField } from './field-confidence';
import { findByType, type ScalarType } from './fields/by-type';
import { dominantCurrency, findCurrencies } from './fields/currency';
import { type DateHints, monthFirstHint } from './fields/date';
import { findLabelHits, type LabelHit } from './labels';
import { type TextLine, textLines } from './layout-text';
import type { Steps } from './pattern-steps';
import { firstMatch } from './patterns';
import { type Candidate, valueNearLabel } from './proximity';
import type { RecoFormDef } from './reco-form';
import { roundedTotal } from './rounding';
import { findTable } from './table';
import { unlabelledValue } from './unlabelled';

export interface PartPage {
  /** The page's text as patterns read it. */
  text: string;
  layout: PageLayout;
  /** Text confidence, 0–100. */
  confidence: number;
}

export interface ExtractedPart {
  valuesByTags: ValuesByTags;
  fieldsByTags: Record<string, RecognizedField>;
}

type TagKinds = Readonly<Record<string, z.infer<typeof TagKind>>>;
type Declared = FieldDeclaration & { type: ScalarType };

/** Label hits of one field looked at (the first in reading order): bounds a hostile part. */
const MAX_HITS_PER_FIELD = 50;
/** A `pattern` of a typed field, read where no label finds a value, is that much less sure. */
const PATTERN_FALLBACK = 0.7;

/** extractPart in steps (one per field or pattern run: pattern-steps.ts). */
export function* extractPartSteps(
  recoForm: RecoFormDef,
  pages: readonly PartPage[],
  tagKinds: TagKinds = {},
): Steps<ExtractedPart> {
  const valuesByTags = yield* extractValuesSteps(
    recoForm,
    pages.map((p) => p.text),
    tagKinds,
  );
  const textConfidence = pages.reduce((sum, p) => sum + p.confidence, 0) / Math.max(1, pages.length);
  const fieldsByTags: Record<string, RecognizedField> = {};
  for (const tag of Object.keys(valuesByTags))
    fieldsByTags[tag] = { confidence: fieldConfidence(textConfidence, 1) };

  const lines = pages.map((p) => textLines(p.layout));
  const scalars = scalarFields(recoForm);
  const hits = findLabelHits(lines.flat(), labelsOf(scalars));
  const hints = dateHints(lines);
  const found: Record<string, Candidate> = {};
  const ambiguity: Record<string, number> = {};
  const firstDate = scalars.find(([, f]) => f.type === 'date')?.[0];
  for (const [tag, field] of scalars) {
    const labelled = labelledCandidates(tag, field, lines, hits, hints);
    const candidate =
      best(labelled) ??
      (field.pattern ? yield* patternValue(field, pages, hints) : undefined) ??
      (field.type !== 'date' || tag === firstDate
        ? unlabelledValue(field.type, lines, recoForm.match, hints)
        : undefined);
    if (candidate) {
      found[tag] = candidate;
      ambiguity[tag] = ambiguityFactor(candidate, labelled, identifiersOf(field.type, lines));
    }
    yield;
  }

  const tables: Record<string, { rows: string[][]; candidate: Candidate }> = {};
  let itemsSum: number | undefined;
  for (const [tag, field] of Object.entries(recoForm.fields)) {
    if (typeof field === 'string' || field.type !== 'table' || !field.columns) continue;
    const stopLabels = scalars.flatMap(([, f]) => f.labels ?? []);
    const table = findTable(lines, field.columns, stopLabels);
    if (table) {
      tables[tag] = table;
      if (tag === 'items') itemsSum = table.amountSum;
    }
    yield;
  }

  const factors = crossCheckFactors({
    amounts: Object.fromEntries(['total', 'subtotal', 'tax'].map((t) => [t, found[t]?.value])),
    itemsSum,
    ibans: Object.fromEntries(
      scalars.filter(([t, f]) => f.type === 'iban' && found[t]).map(([t]) => [t, found[t]!.value]),
    ),
  });
  // After the cross-checks: the items, subtotal and tax add up to the total before rounding.
  if (found.total) found.total = roundedTotal(found.total, lines);
  for (const [tag, candidate] of Object.entries(found)) {
    valuesByTags[tag] = candidate.value;
    fieldsByTags[tag] = recognizedField(candidate, (factors[tag] ?? 1) * (ambiguity[tag] ?? 1));
  }
  for (const [tag, { rows, candidate }] of Object.entries(tables)) {
    valuesByTags[tag] = rows;
    fieldsByTags[tag] = recognizedField(candidate, factors[tag]);
  }
  return { valuesByTags, fieldsByTags };
}

/**
 * How well each typed field of a form is evidenced on one page, 0–1 (its best labelled value's
 * quality; a table: 1 when found): the field evidence of classification (classify.ts).
 */
export function typedFieldEvidence(recoForm: RecoFormDef, layout: PageLayout): number[] {
  const lines = [textLines(layout)];
  const scalars = scalarFields(recoForm);
  const hits = findLabelHits(lines[0]!, labelsOf(scalars));
  const hints = dateHints(lines);
  const evidence = scalars.map(
    ([tag, field]) => best(labelledCandidates(tag, field, lines, hits, hints))?.quality ?? 0,
  );
  const stopLabels = scalars.flatMap(([, f]) => f.labels ?? []);
  for (const field of Object.values(recoForm.fields))
    if (typeof field !== 'string' && field.type === 'table' && field.columns)
      evidence.push(findTable(lines, field.columns, stopLabels) ? 1 : 0);
  return evidence;
}

function scalarFields(recoForm: RecoFormDef): Array<[string, Declared]> {
  return Object.entries(recoForm.fields).flatMap(([tag, f]) =>
    typeof f === 'string' || f.type === 'pattern' || f.type === 'table' ? [] : [[tag, f as Declared]],
  );
}

function labelsOf(scalars: ReadonlyArray<[string, Declared]>): Record<string, string[]> {
  return Object.fromEntries(scalars.map(([tag, f]) => [tag, f.labels ?? []]));
}

/**
 * The best value beside each of the field's label hits (the first MAX_HITS_PER_FIELD), in reading
 * order, with the rank of the label that found it.
 */
function labelledCandidates(
  tag: string,
  field: Declared,
  lines: readonly (readonly TextLine[])[],
  hits: readonly LabelHit[],
  hints: DateHints,
): Array<Candidate & { rank: number }> {
  return hits
    .filter((h) => h.field === tag)
    .slice(0, MAX_HITS_PER_FIELD)
    .flatMap((hit) => {
      const page = lines.find((p) => p[0]?.pageIdx === hit.line.pageIdx)!;
      const c = valueNearLabel(
        hit,
        page,
        hits.filter((h) => h.line.pageIdx === hit.line.pageIdx),
        (text) => findByType(field.type, text, hints),
        field.type === 'amount',
      );
      return c ? [{ ...c, rank: hit.rank }] : [];
    });
}

/** The candidate of the highest quality, the first in reading order of equals. */
function best<C extends Candidate>(candidates: readonly C[]): C | undefined {
  return candidates.reduce<C | undefined>((b, c) => (!b || c.quality > b.quality ? c : b), undefined);
}

/** Every distinct value of an identifier type (VAT id, IBAN) on the part; none for other types. */
function identifiersOf(type: ScalarType, lines: readonly (readonly TextLine[])[]): string[] {
  if (type !== 'vatId' && type !== 'iban') return [];
  const values = lines.flat().flatMap((l) =>
    findByType(type, l.text)
      .filter((m) => m.quality === 1)
      .map((m) => m.value),
  );
  return [...new Set(values)];
}

function* patternValue(
  field: Declared,
  pages: readonly PartPage[],
  hints: DateHints,
): Steps<Candidate | undefined> {
  for (const page of pages) {
    const group = firstMatch(page.text, field.pattern!)?.[1]?.trim();
    yield;
    const [m] = group ? findByType(field.type, group, hints) : [];
    if (m)
      return {
        value: m.value,
        raw: group!.slice(m.start, m.end),
        pageIdx: page.layout.pageIdx,
        quality: m.quality * PATTERN_FALLBACK,
        wordConfidence: page.confidence,
        order: [page.layout.pageIdx, 0, 0],
      };
  }
  return undefined;
}

/** Numeric dates month first when the part's own dates say so, or when it is in US dollars. */
export function dateHints(lines: readonly (readonly TextLine[])[]): DateHints {
  const text = lines
    .flat()
    .map((l) => l.text)
    .join('\n');
  const usd = dominantCurrency(findCurrencies(text))?.value === 'USD';
  return { monthFirst: monthFirstHint(text, usd) };
}
