/**
 * Which recognition form each page shows, and the parts (runs of pages) of one file (DESIGN.md,
 * "Recognition"). Pure.
 *
 * Weighting, per page and recognition form:
 * - keyword evidence K = min(distinct `match` keywords found, S) / S with S = min(2, keywords): two
 *   keywords found are full evidence, however many the list holds, so a list in several languages
 *   does not lower a page's score (whole words, case-insensitive);
 * - field evidence F = min(E, S) / S, E the sum over the form's fields of how well each is found on the
 *   page (a pattern field 1 when it matches; a field declared by type, the quality 0–1 of its best
 *   value beside one of its labels; a table 1 when its header and rows are found), S = min(4, fields):
 *   so a prebuilt form's many optional fields do not lower it either (a form without fields: F = K);
 * - score = 100 × (0.75 K + 0.25 F). Keywords decide; fields break near-ties between similar forms.
 * A page goes to the form with the highest score (ties: more keywords found, then the form listed first),
 * or to none when no form has a keyword on it or the best score is below `minScore`. Consecutive pages of the same form make one part;
 * an unrecognised page ends a part and belongs to none. A part's confidence is the mean over its pages
 * of score × text confidence / 100 (text confidence: 100 for a text layer, tesseract's for OCR).
 */
import { fieldPattern, type PageLayout } from '@docflow/contracts';
import { typedFieldEvidence } from './extract-fields';
import { layoutFromText } from './layout-from-text';
import { runSteps, type Steps } from './pattern-steps';
import { fieldMatches, hasKeyword } from './patterns';
import type { RecoFormDef } from './reco-form';

export const DEFAULT_MIN_SCORE = 50;
const KEYWORD_WEIGHT = 0.75;
const FIELD_WEIGHT = 0.25;
/** Keywords found that make full keyword evidence. */
const KEYWORD_SATURATION = 2;
/** Field evidence (fields found, weighed by how well) that makes full field evidence. */
const FIELD_SATURATION = 4;

export interface PageText {
  text: string;
  /** How much the text can be trusted, 0–100. */
  confidence: number;
  /** The page's words with their places; without it, made from `text` (layout-from-text.ts). */
  layout?: PageLayout;
}

export interface FormScore {
  recoFormId: string;
  /** 0–100. */
  score: number;
  keywordsFound: number;
}

export interface ClassifiedPart {
  recoFormId: string;
  /** 0-based, inclusive. */
  pageIdxStart: number;
  pageIdxEnd: number;
  /** Percent, 0–100, one decimal. */
  confidence: number;
}

export interface ClassifyOptions {
  /** A page whose best score is below this is recognised as no form. Default 50. */
  minScore?: number;
}

/** How well a page's text fits one recognition form. */
export function scorePage(text: string, form: RecoFormDef, layout?: PageLayout): FormScore {
  return runSteps(scorePageSteps({ text, confidence: 100, layout }, form));
}

/** The best-fitting form of a page, or null when none reaches `minScore`. */
export function classifyPage(
  text: string,
  forms: readonly RecoFormDef[],
  minScore = DEFAULT_MIN_SCORE,
): FormScore | null {
  return runSteps(classifyPageSteps({ text, confidence: 100 }, forms, minScore));
}

/** Groups a file's pages into parts, one per run of consecutive pages of the same recognition form. */
export function classifyPages(
  pages: readonly PageText[],
  forms: readonly RecoFormDef[],
  options: ClassifyOptions = {},
): ClassifiedPart[] {
  return runSteps(classifyPagesSteps(pages, forms, options));
}

/** classifyPages in steps, one per pattern run (pattern-steps.ts). */
export function* classifyPagesSteps(
  pages: readonly PageText[],
  forms: readonly RecoFormDef[],
  options: ClassifyOptions = {},
): Steps<ClassifiedPart[]> {
  const minScore = options.minScore ?? DEFAULT_MIN_SCORE;
  const parts: Array<ClassifiedPart & { sum: number }> = [];
  let open: (ClassifiedPart & { sum: number }) | undefined;
  for (const [idx, page] of pages.entries()) {
    const best = yield* classifyPageSteps(page, forms, minScore);
    if (!best) {
      open = undefined;
      continue;
    }
    const weighted = (best.score * clampPercent(page.confidence)) / 100;
    if (open?.recoFormId === best.recoFormId) {
      open.pageIdxEnd = idx;
      open.sum += weighted;
    } else {
      open = {
        recoFormId: best.recoFormId,
        pageIdxStart: idx,
        pageIdxEnd: idx,
        confidence: 0,
        sum: weighted,
      };
      parts.push(open);
    }
  }
  return parts.map(({ sum, ...part }) => ({
    ...part,
    confidence: Math.round((sum / (part.pageIdxEnd - part.pageIdxStart + 1)) * 10) / 10,
  }));
}

function* classifyPageSteps(
  page: PageText,
  forms: readonly RecoFormDef[],
  minScore: number,
): Steps<FormScore | null> {
  let best: FormScore | null = null;
  for (const form of forms) {
    const s = yield* scorePageSteps(page, form);
    if (s.keywordsFound === 0 || s.score < minScore) continue;
    if (!best || s.score > best.score || (s.score === best.score && s.keywordsFound > best.keywordsFound))
      best = s;
  }
  return best;
}

function* scorePageSteps(page: PageText, form: RecoFormDef): Steps<FormScore> {
  const { text } = page;
  const keywords = [...new Set(form.match.map((k) => k.trim().toLowerCase()))];
  let keywordsFound = 0;
  for (const keyword of keywords) {
    if (hasKeyword(text, keyword)) keywordsFound++;
    yield;
  }
  const fields = Object.values(form.fields);
  let evidence = 0;
  for (const field of fields) {
    const pattern = fieldPattern(field);
    if (pattern === undefined) continue;
    if (fieldMatches(text, pattern)) evidence++;
    yield;
  }
  if (fields.some((f) => fieldPattern(f) === undefined)) {
    const layout = page.layout ?? layoutFromText(text, 0);
    for (const quality of typedFieldEvidence(form, layout)) evidence += quality;
    yield;
  }
  const saturation = Math.min(KEYWORD_SATURATION, keywords.length);
  const k = saturation ? Math.min(keywordsFound, saturation) / saturation : 0;
  const fieldSaturation = Math.min(FIELD_SATURATION, fields.length);
  const f = fieldSaturation ? Math.min(evidence, fieldSaturation) / fieldSaturation : k;
  return { recoFormId: form.id, score: 100 * (KEYWORD_WEIGHT * k + FIELD_WEIGHT * f), keywordsFound };
}

function clampPercent(n: number): number {
  return Number.isFinite(n) ? Math.min(100, Math.max(0, n)) : 0;
}
