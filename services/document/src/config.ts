import { envFields } from '@docflow/kit';
import { z } from 'zod';
import { COMMON_TERM_DOCS } from './views/search';

const FIVE_GIB = 5 * 1024 ** 3;

/**
 * DOCFLOW_MAX_CREATE_BYTES: the largest create request, every file together, in bytes (default 5 GiB);
 * with DOCFLOW_MAX_UPLOAD_BYTES (one file) it bounds what one request can put on disk.
 */
export const DocumentEnv = z.object({
  DOCFLOW_MAX_CREATE_BYTES: envFields.positiveInt.default(FIVE_GIB),
  /** How often an audit checkpoint (Merkle root of every document's head hash) is taken, in ms; 0: never. */
  DOCFLOW_AUDIT_CHECKPOINT_MS: z.coerce.number().int().min(0).default(60_000),
  /**
   * Documents from which on a search term is common (views/search.ts): a search of common terms only
   * with at least this many matches is listed in the view's order and its total counted up to this many.
   */
  DOCFLOW_SEARCH_COMMON_DOCS: envFields.positiveInt.default(COMMON_TERM_DOCS),
});
export type DocumentEnv = z.infer<typeof DocumentEnv>;
