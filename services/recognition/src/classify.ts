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
import type { RecognitionForm } from '@docflow/contracts';
import type { z } from 'zod';
import { fieldPattern, keywordPattern } from './patterns';

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
  const keywords = [...new Set(form.match.map((k) => k.trim().toLowerCase()))];
  const keywordsFound = keywords.filter((k) => keywordPattern(k).test(text)).length;
  const k = keywords.length ? keywordsFound / keywords.length : 0;
  const patterns = Object.values(form.fields);
  const f = patterns.length
    ? patterns.filter((p) => fieldPattern(p)?.test(text) ?? false).length / patterns.length
    : k;
  return { recoFormId: form.id, score: 100 * (KEYWORD_WEIGHT * k + FIELD_WEIGHT * f), keywordsFound };
}

/** The best-fitting form of a page, or null when none reaches `minScore`. */
export function classifyPage(
  text: string,
  forms: readonly RecoFormDef[],
  minScore = DEFAULT_MIN_SCORE,
): FormScore | null {
  let best: FormScore | null = null;
  for (const form of forms) {
    const s = scorePage(text, form);
    if (s.keywordsFound === 0 || s.score < minScore) continue;
    if (!best || s.score > best.score || (s.score === best.score && s.keywordsFound > best.keywordsFound))
      best = s;
  }
  return best;
}

/** Groups a file's pages into parts, one per run of consecutive pages of the same recognition form. */
export function classifyPages(
  pages: readonly PageText[],
  forms: readonly RecoFormDef[],
  options: ClassifyOptions = {},
): ClassifiedPart[] {
  const minScore = options.minScore ?? DEFAULT_MIN_SCORE;
  const parts: Array<ClassifiedPart & { sum: number }> = [];
  let open: (ClassifiedPart & { sum: number }) | undefined;
  pages.forEach((page, idx) => {
    const best = classifyPage(page.text, forms, minScore);
    if (!best) {
      open = undefined;
      return;
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
  });
  return parts.map(({ sum, ...part }) => ({
    ...part,
    confidence: Math.round((sum / (part.pageIdxEnd - part.pageIdxStart + 1)) * 10) / 10,
  }));
}

function clampPercent(n: number): number {
  return Number.isFinite(n) ? Math.min(100, Math.max(0, n)) : 0;
}
