/** Names for account ids, from the person directory (open to every signed-in caller), asked once per id. */
import { enc, get } from './api';

const asked = new Map<string, Promise<string | undefined>>();

/** `Alice Test <alice@example.com>`, or undefined for a service account or an id the caller cannot read. */
export function personName(id: string): Promise<string | undefined> {
  let name = asked.get(id);
  if (!name) {
    name = get<{ name_first: string; name_last: string; email: string }>(`/api/v2/person/${enc(id)}`).then(
      (p) => `${p.name_first} ${p.name_last} <${p.email}>`,
      () => undefined,
    );
    asked.set(id, name);
  }
  return name;
}
