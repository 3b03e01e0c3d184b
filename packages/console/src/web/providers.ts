/**
 * The single sign-on providers the sign-in page offers ("Sign in with …"), from
 * `GET /api/auth/v1/providers` when the gateway has that route. Any failure (no such route yet, 401, a
 * network error, an unexpected shape) means none: the page then offers e-mail/password and the API key.
 */
export interface Provider {
  id: string;
  name: string;
  /** Where the browser goes to sign in with the provider. */
  loginUrl: string;
}

const PROVIDERS_PATH = '/api/auth/v1/providers';
const loginUrlOf = (id: string) => `/api/auth/v1/oidc/login?provider=${encodeURIComponent(id)}`;

/** An entry of the list (a bare array, or `{ providers: [...] }`), or undefined when it is none. */
function providerOf(entry: unknown): Provider | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { id, name, displayName, loginUrl } = entry as Record<string, unknown>;
  if (typeof id !== 'string' || !id) return undefined;
  const label = typeof displayName === 'string' ? displayName : typeof name === 'string' ? name : id;
  return { id, name: label, loginUrl: typeof loginUrl === 'string' ? loginUrl : loginUrlOf(id) };
}

export async function loadProviders(): Promise<Provider[]> {
  try {
    const res = await fetch(PROVIDERS_PATH, { headers: { accept: 'application/json' } });
    if (!res.ok) return [];
    const body = (await res.json()) as unknown;
    const list = Array.isArray(body) ? body : (body as { providers?: unknown })?.providers;
    return Array.isArray(list) ? list.map(providerOf).filter((p): p is Provider => p !== undefined) : [];
  } catch {
    return [];
  }
}
