/**
 * What a validator's correction teaches (issue 34), pure: for each value the validator changed, where
 * it stood on the part's pages — the label it was read beside and its place relative to it — remembered
 * for the part's supplier. Only a part whose values carry their places (fieldsByTags) teaches anything,
 * and only when it names its supplier.
 */
import {
  normaliseSupplier,
  type PageLayout,
  type RecognitionMemoryEvent,
  type RecognizedField,
  type RecognizedPart,
  type RememberedPlace,
  type ValuesByTags,
} from '@docflow/contracts';
import { findWords, unionBox } from './layout-words';

export interface Correction {
  docId: string;
  /** The part as recognition recorded it. */
  part: RecognizedPart;
  /** The values the validator gave. */
  corrected: ValuesByTags;
  at: string;
  /** The part's pages, when they are at hand: the corrected value is then found where it really stood. */
  pages?: readonly PageLayout[];
}

/** The tag whose value names the supplier (the prebuilt `invoice` form's). */
export const SUPPLIER_TAG = 'supplier';

function placeOf(
  field: RecognizedField,
  value: string,
  c: Correction,
): Omit<RememberedPlace, 'docId' | 'at'> | undefined {
  const page = c.pages?.find((p) => p.pageIdx === field.pageIdx);
  // Where the corrected value itself stands, when the page shows it; else where the wrong one was read.
  const words = page ? findWords(page, value) : undefined;
  const box = words ? unionBox(words.map((w) => w.box)) : field.box;
  if (field.pageIdx === undefined || !box) return undefined;
  const label = field.label !== undefined && page ? findWords(page, field.label) : undefined;
  const labelBox = label ? unionBox(label.map((w) => w.box)) : undefined;
  return {
    ...(field.label !== undefined ? { label: field.label } : {}),
    pageIdx: field.pageIdx,
    box,
    ...(labelBox ? { fromLabel: [box[0] - labelBox[0], box[1] - labelBox[1]] as [number, number] } : {}),
    value,
  };
}

export function decideCorrections(c: Correction): RecognitionMemoryEvent[] {
  const supplierValue = c.corrected[SUPPLIER_TAG] ?? c.part.valuesByTags[SUPPLIER_TAG];
  const supplier = typeof supplierValue === 'string' ? normaliseSupplier(supplierValue) : '';
  if (!supplier || !c.part.fieldsByTags) return [];
  const events: RecognitionMemoryEvent[] = [];
  for (const [tag, value] of Object.entries(c.corrected)) {
    const field = c.part.fieldsByTags[tag];
    if (typeof value !== 'string' || value === c.part.valuesByTags[tag] || !field) continue;
    const place = placeOf(field, value, c);
    if (place)
      events.push({
        type: 'PlaceRemembered',
        data: { supplier, tag, place: { ...place, docId: c.docId, at: c.at } },
      });
  }
  return events;
}
