/** A small HTTP client for API tests: every call returns status, headers and the parsed body. */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  key?: string;
  runAs?: string;
  body?: unknown;
  /** Raw body (sent as is) instead of JSON. */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
}

export function apiClient(baseUrl: string) {
  return async function call<T = any>(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (options.runAs) headers['svc-run-as'] = options.runAs;
    let body: string | Uint8Array | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, body, signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    let parsed: unknown = text;
    if (/json/.test(res.headers.get('content-type') ?? '')) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };
}

export type Api = ReturnType<typeof apiClient>;
