/** What an event changed in a document: the differing leaves of two representations. Pure. */
import { isDeepStrictEqual } from 'node:util';
import type { FieldChange } from '@docflow/contracts';
import type { z } from 'zod';

/** One changed leaf: its JSON Pointer, and the value before and after (absent when there was none). */
export type Change = z.infer<typeof FieldChange>;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** RFC 6901: `~` and `/` in a key are escaped. */
const pointer = (path: string, key: string) => `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;

/** An object as itself, an absent value as an empty object, anything else as undefined. */
const fieldsOf = (v: unknown): Record<string, unknown> | undefined =>
  v === undefined ? {} : isPlainObject(v) ? v : undefined;

/**
 * The changes from `before` to `after` as JSON Pointer paths: objects are compared key by key (an
 * object added or removed too, so a new document lists each of its fields), anything else (arrays
 * included) as a whole. `before`/`after` is absent for an added/removed field.
 */
export function diffFields(before: unknown, after: unknown, path = ''): Change[] {
  if (isDeepStrictEqual(before, after)) return [];
  const [from, to] = [fieldsOf(before), fieldsOf(after)];
  if (from && to && Object.keys({ ...from, ...to }).length > 0) {
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
    return keys.flatMap((key) => diffFields(from[key], to[key], pointer(path, key)));
  }
  return [
    {
      path: path || '/',
      ...(before === undefined ? {} : { before }),
      ...(after === undefined ? {} : { after }),
    },
  ];
}
