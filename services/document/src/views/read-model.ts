/**
 * The view read model, projected from the document events: its tables and their migration
 * (schema.ts), kept by the projection through the writer (writer.ts), listed by the reader (reader.ts)
 * with the statements the planner chooses (planner.ts). Deputies come from their own read model.
 */
import type { LocalDb } from '@docflow/kit/eventsourcing';
import type { DeputiesReadModel } from './deputies';
import { createViewsReader, type ViewsReader } from './reader';
import { migrateViewsSchema } from './schema';
import { createTotalCache } from './total-cache';
import { createViewsWriter, type ViewsWriter } from './writer';

export interface ViewsReadModel extends ViewsReader, ViewsWriter {}

export function createViewsReadModel(
  db: LocalDb,
  deputies: Pick<DeputiesReadModel, 'standsInFor'>,
  /** Documents from which on a search term is common (search.ts); tests lower it. */
  commonTermDocs?: number,
): ViewsReadModel {
  migrateViewsSchema(db);
  const totals = createTotalCache();
  const reader = createViewsReader(db, deputies, totals, commonTermDocs);
  // Every write reaches the totals (touched or cleared): the reader hears of it too.
  const writer = createViewsWriter(db, {
    ...totals,
    touched(keys) {
      reader.written();
      totals.touched(keys);
    },
    clear() {
      reader.written();
      totals.clear();
    },
  });
  return { ...reader, ...writer };
}
