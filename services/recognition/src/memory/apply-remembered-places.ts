/**
 * The extraction hook of learning from corrections (issue 34): the values a supplier's remembered
 * places read on a new document's pages, tried before the form's own fields. Pure: it takes the
 * supplier's places and the part's PageLayouts (its first page first) and returns, per tag, the text
 * read there and how (remembered-values.ts reads it as the field's type).
 *
 * A place with a label and its offset from it is read beside that label wherever the label stands now
 * (a longer address block above moves everything down); otherwise, or when the label is not on the
 * page, at the remembered box itself. A place where no word stands gives nothing: the form's own
 * fields read that tag as usual.
 */
import type { Box, PageLayout, RecognizedField, RememberedPlace } from '@docflow/contracts';
import { findWords, unionBox, wordsWithin } from './layout-words';

/** A value read at a remembered place is as sure as its words, a little less: the place was learnt once. */
export const REMEMBERED_PLACE_FACTOR = 0.95;

export interface RememberedValue {
  value: string;
  field: RecognizedField;
}

/** Where the value should stand on `page` now. */
function expectedBox(place: RememberedPlace, page: PageLayout): Box {
  if (place.label === undefined || place.fromLabel === undefined) return place.box;
  const label = findWords(page, place.label);
  if (!label) return place.box;
  const [left, top] = unionBox(label.map((w) => w.box));
  const [dx, dy] = place.fromLabel;
  const [width, height] = [place.box[2] - place.box[0], place.box[3] - place.box[1]];
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return [clamp(left + dx), clamp(top + dy), clamp(left + dx + width), clamp(top + dy + height)];
}

/**
 * @example
 * const remembered = applyRememberedPlaces(memory.places, pages);
 * for (const [tag, { value, field }] of Object.entries(remembered)) { values[tag] = value; fieldsByTags[tag] = field; }
 */
export function applyRememberedPlaces(
  places: Readonly<Record<string, RememberedPlace>>,
  pages: readonly PageLayout[],
): Record<string, RememberedValue> {
  const read: Record<string, RememberedValue> = {};
  for (const [tag, place] of Object.entries(places)) {
    const page = pages[place.pageIdx];
    if (!page) continue;
    const words = wordsWithin(page, expectedBox(place, page));
    if (words.length === 0) continue;
    const value = words.map((w) => w.text).join(' ');
    read[tag] = {
      value,
      field: {
        confidence: Math.min(...words.map((w) => w.confidence)) * REMEMBERED_PLACE_FACTOR,
        raw: value,
        pageIdx: page.pageIdx,
        box: unionBox(words.map((w) => w.box)),
        ...(place.label !== undefined ? { label: place.label } : {}),
        source: 'memory',
      },
    };
  }
  return read;
}
