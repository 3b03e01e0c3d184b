import type { PageLayout } from '@docflow/contracts';
import { dateHints } from './extract-fields';
import type { DateHints } from './fields/date';
import { textLines } from './layout-text';

/** The pages a part of a file spans, first and last inclusive. */
export interface PageSpan {
  pageIdxStart: number;
  pageIdxEnd: number;
}

/** Whether page `pageIdx` of a file is one of a part's pages. */
export function inPart(pageIdx: number, part: PageSpan): boolean {
  return pageIdx >= part.pageIdxStart && pageIdx <= part.pageIdxEnd;
}

/**
 * A part's pages among a file's layouts, and the date hints of their text.
 *
 * @example
 * const { pages, hints } = partPages(result.layouts, part);
 */
export function partPages(
  layouts: readonly PageLayout[],
  part: PageSpan,
): { pages: PageLayout[]; hints: DateHints } {
  const pages = layouts.filter((p) => inPart(p.pageIdx, part));
  return { pages, hints: dateHints(pages.map(textLines)) };
}
