/**
 * A recognised value's confidence, 0–100 with one decimal: the confidence of its words (OCR; 100 on
 * a text layer) × how well label and type matched (0–1) × the cross-checks' factor, at most 100.
 * Pure.
 */
import type { RecognizedField } from '@docflow/contracts';
import type { Candidate } from './proximity';

export function fieldConfidence(wordConfidence: number, quality: number, crossCheck = 1): number {
  const c = wordConfidence * quality * crossCheck;
  return Number.isFinite(c) ? Math.round(Math.min(100, Math.max(0, c)) * 10) / 10 : 0;
}

/** The contract's RecognizedField of a candidate, its cross-check factor applied. */
export function recognizedField(candidate: Candidate, crossCheck = 1): RecognizedField {
  return {
    confidence: fieldConfidence(candidate.wordConfidence, candidate.quality, crossCheck),
    raw: candidate.raw.slice(0, 10_000),
    pageIdx: candidate.pageIdx,
    ...(candidate.box && { box: candidate.box }),
    ...(candidate.label !== undefined && { label: candidate.label.slice(0, 200) }),
  };
}
