/** An account shown by the name a read gave it (`embed=names`, a service account too; `[erased]` after an erasure), else its id. */
import type { PeopleNames } from './model';

export function Person({ id, names }: { id: string; names: PeopleNames | undefined }) {
  const name = names?.[id];
  return name ? <span title={id}>{name}</span> : <code>{id}</code>;
}
