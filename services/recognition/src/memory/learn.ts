/**
 * What a validator's correction teaches (issue 34), pure: for each value the validator changed, where
 * it stands on the part's pages — the label beside it and its place relative to that label, or its
 * place on the page when no label is — remembered for the part's supplier. With the part's pages at
 * hand the corrected value is found where it is printed, however differently it is written there
 * (value-place.ts); without them, or when no page shows it, the place the wrong value was read at is
 * all there is. Only a part whose values carry their places (fieldsByTags) teaches anything, and only
 * when it names its supplier.
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
import type { DateHints } from '../fields/date';
import { partPages } from '../part-pages';
import { findWords, unionBox } from './layout-words';
import { findValuePlace } from './value-place';

export interface Correction {
  docId: string;
  /** The part as recognition recorded it. */
  part: RecognizedPart;
  /** The values the validator gave. */
  corrected: ValuesByTags;
  at: string;
  /** The file's pages, when they are at hand: the corrected value is then found where it really stood. */
  pages?: readonly PageLayout[];
}

/** The tag whose value names the supplier (the prebuilt `invoice` form's). */
export const SUPPLIER_TAG = 'supplier';

type LearntPlace = Omit<RememberedPlace, 'docId' | 'at'>;

/** Where the corrected value stands on the part's pages (the page it was read on first). */
function foundPlace(
  field: RecognizedField | undefined,
  value: string,
  pages: readonly PageLayout[],
  start: number,
  hints: DateHints,
): LearntPlace | undefined {
  const ordered = [...pages].sort(
    (a, b) => Number(b.pageIdx === field?.pageIdx) - Number(a.pageIdx === field?.pageIdx),
  );
  for (const page of ordered) {
    const near = page.pageIdx === field?.pageIdx ? field.box : undefined;
    const found = findValuePlace(page, value, hints, near);
    if (!found) continue;
    const { box, label } = found;
    return {
      ...(label
        ? { label: label.text, fromLabel: [box[0] - label.box[0], box[1] - label.box[1]] as [number, number] }
        : {}),
      pageIdx: page.pageIdx - start,
      box,
      value,
    };
  }
  return undefined;
}

/** Where the wrong value was read, beside the label it was read by (an OCR misreading stands right). */
function readPlace(
  field: RecognizedField,
  value: string,
  pages: readonly PageLayout[],
  start: number,
): LearntPlace | undefined {
  if (field.pageIdx === undefined || !field.box) return undefined;
  const page = pages.find((p) => p.pageIdx === field.pageIdx);
  const label = field.label !== undefined && page ? findWords(page, field.label) : undefined;
  const labelBox = label ? unionBox(label.map((w) => w.box)) : undefined;
  return {
    ...(field.label !== undefined ? { label: field.label } : {}),
    pageIdx: field.pageIdx - start,
    box: field.box,
    ...(labelBox
      ? { fromLabel: [field.box[0] - labelBox[0], field.box[1] - labelBox[1]] as [number, number] }
      : {}),
    value,
  };
}

export function decideCorrections(c: Correction): RecognitionMemoryEvent[] {
  const supplierValue = c.corrected[SUPPLIER_TAG] ?? c.part.valuesByTags[SUPPLIER_TAG];
  const supplier = typeof supplierValue === 'string' ? normaliseSupplier(supplierValue) : '';
  if (!supplier || !c.part.fieldsByTags) return [];
  const start = c.part.pageIdxStart;
  const { pages, hints } = partPages(c.pages ?? [], c.part);
  const events: RecognitionMemoryEvent[] = [];
  for (const [tag, value] of Object.entries(c.corrected)) {
    const field = c.part.fieldsByTags[tag];
    if (typeof value !== 'string' || value.trim() === '' || value === c.part.valuesByTags[tag]) continue;
    const place =
      foundPlace(field, value, pages, start, hints) ?? (field && readPlace(field, value, pages, start));
    if (place)
      events.push({
        type: 'PlaceRemembered',
        data: { supplier, tag, place: { ...place, docId: c.docId, at: c.at } },
      });
  }
  return events;
}
