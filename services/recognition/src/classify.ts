/**
 * Which recognition form each page shows, and the parts (runs of pages) of one file (DESIGN.md,
 * "Recognition"). Pure.
 *
 * Weighting, per page and recognition form:
 * - keyword coverage K = distinct `match` keywords found / keywords (whole words, case-insensitive);
 * - field coverage F = `fields` patterns that match / fields (a form without fields: F = K);
 * - score = 100 × (0.75 K + 0.25 F). Keywords decide; fields break near-ties between similar forms.
 * A page goes to the form with the highest score (ties: more keywords found, then the form listed first),
 * or to none when no form has a keyword on it or the best score is below `minScore`. Consecutive pages of the same form make one part;
 * an unrecognised page ends a part and belongs to none. A part's confidence is the mean over its pages
 * of score × text confidence / 100 (text confidence: 100 for a text layer, tesseract's for OCR).
 */
import { fieldPattern, type RecognitionForm } from '@docflow/contracts';
import type { z } from 'zod';
import { runSteps, type Steps } from './pattern-steps';
import { fieldMatches, hasKeyword } from './patterns';

export type RecoFormDef = z.infer<typeof RecognitionForm>;

export const DEFAULT_MIN_SCORE = 50;
const KEYWORD_WEIGHT = 0.75;
const FIELD_WEIGHT = 0.25;

export interface PageText {
  text: string;
  /** How much the text can be trusted, 0–100. */
  confidence: number;
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
export function scorePage(text: string, form: RecoFormDef): FormScore {
  return runSteps(scorePageSteps(text, form));
}

/** The best-fitting form of a page, or null when none reaches `minScore`. */
export function classifyPage(
  text: string,
  forms: readonly RecoFormDef[],
  minScore = DEFAULT_MIN_SCORE,
): FormScore | null {
  return runSteps(classifyPageSteps(text, forms, minScore));
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
    const best = yield* classifyPageSteps(page.text, forms, minScore);
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
  text: string,
  forms: readonly RecoFormDef[],
  minScore: number,
): Steps<FormScore | null> {
  let best: FormScore | null = null;
  for (const form of forms) {
    const s = yield* scorePageSteps(text, form);
    if (s.keywordsFound === 0 || s.score < minScore) continue;
    if (!best || s.score > best.score || (s.score === best.score && s.keywordsFound > best.keywordsFound))
      best = s;
  }
  return best;
}

function* scorePageSteps(text: string, form: RecoFormDef): Steps<FormScore> {
  const keywords = [...new Set(form.match.map((k) => k.trim().toLowerCase()))];
  let keywordsFound = 0;
  for (const keyword of keywords) {
    if (hasKeyword(text, keyword)) keywordsFound++;
    yield;
  }
  const patterns = Object.values(form.fields).flatMap((f) => fieldPattern(f) ?? []);
  let fieldsFound = 0;
  for (const pattern of patterns) {
    if (fieldMatches(text, pattern)) fieldsFound++;
    yield;
  }
  const k = keywords.length ? keywordsFound / keywords.length : 0;
  const f = patterns.length ? fieldsFound / patterns.length : k;
  return { recoFormId: form.id, score: 100 * (KEYWORD_WEIGHT * k + FIELD_WEIGHT * f), keywordsFound };
}

function clampPercent(n: number): number {
  return Number.isFinite(n) ? Math.min(100, Math.max(0, n)) : 0;
}
