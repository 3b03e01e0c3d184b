/**
 * Learning from corrections applied to a recognised file (issue 34): each part whose supplier the form's
 * memory knows takes the values read at that supplier's remembered places first; a tag whose place shows
 * no value of the field's type now keeps what the form's fields read. A value read so says so
 * (`source: 'memory'`), its confidence that of its words × how surely they are of the type.
 */
import {
  type FormDefinition,
  normaliseSupplier,
  type PageLayout,
  recognitionMemoryStream,
} from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { loadAggregate } from '@docflow/kit/eventsourcing';
import { fieldConfidence } from '../field-confidence';
import { findByType } from '../fields/by-type';
import type { DateHints } from '../fields/date';
import { partPages } from '../part-pages';
import type { RecoFormDef } from '../reco-form';
import type { RecoPart, RecoSuccess } from '../recognize-file';
import { applyRememberedPlaces, type RememberedValue } from './apply-remembered-places';
import { SUPPLIER_TAG } from './learn';
import { type MemoryState, memoryAggregate } from './memory';

/** The remembered text as the field reads it: its type's value, or the text itself for a pattern field. */
function asField(
  declared: RecoFormDef['fields'][string] | undefined,
  { value, field }: RememberedValue,
  hints: DateHints,
): RememberedValue | undefined {
  if (declared === undefined) return undefined;
  if (typeof declared === 'string' || declared.type === 'pattern') return { value, field };
  if (declared.type === 'table') return undefined;
  const [match] = findByType(declared.type, value, hints);
  if (!match) return undefined;
  return {
    value: match.value,
    field: { ...field, confidence: fieldConfidence(field.confidence, match.quality) },
  };
}

/**
 * A part with its supplier's remembered values in place of the form's: the part itself when the memory
 * knows nothing of the supplier.
 *
 * @example
 * const part = rememberedPart(part, recoForm, memory, result.layouts);
 */
export function rememberedPart(
  part: RecoPart,
  recoForm: RecoFormDef,
  memory: MemoryState,
  layouts: readonly PageLayout[],
): RecoPart {
  const supplier = part.valuesByTags[SUPPLIER_TAG];
  const places = typeof supplier === 'string' ? memory[normaliseSupplier(supplier)] : undefined;
  if (!places) return part;
  const { pages, hints } = partPages(layouts, part);
  const valuesByTags = { ...part.valuesByTags };
  const fieldsByTags = { ...part.fieldsByTags };
  for (const [tag, read] of Object.entries(applyRememberedPlaces(places, pages))) {
    const typed = asField(recoForm.fields[tag], read, hints);
    if (!typed) continue;
    valuesByTags[tag] = typed.value;
    fieldsByTags[tag] = typed.field;
  }
  return { ...part, valuesByTags, fieldsByTags };
}

/** The file's parts read with the memory of `form` (one read of its `idpmemory-` stream). */
export async function withRememberedValues(
  store: EventStore,
  form: FormDefinition,
  result: RecoSuccess,
): Promise<RecoSuccess> {
  if (!result.parts.some((p) => typeof p.valuesByTags[SUPPLIER_TAG] === 'string')) return result;
  const { state } = await loadAggregate(store, recognitionMemoryStream(form.name), memoryAggregate);
  if (Object.keys(state).length === 0) return result;
  const recoForms = form.recognition?.forms ?? [];
  return {
    ...result,
    parts: result.parts.map((part) => {
      const recoForm = recoForms.find((f) => f.id === part.recoForm.id);
      return recoForm ? rememberedPart(part, recoForm, state, result.layouts) : part;
    }),
  };
}
