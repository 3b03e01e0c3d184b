/** Shared OpenAPI response entries. */
import { Problem } from './problem';

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: Problem } },
});

export const problemResponses = {
  400: problem(
    'Malformed input: bad JSON, wrong types, unknown keys or values out of range (`errors` lists them).',
  ),
  401: problem('No credentials, or an unknown or inactive API key.'),
  403: problem('Authenticated but not allowed (missing role, or unknown/inactive `svc-run-as` user).'),
  404: problem('No such resource, or one the caller may not read.'),
  409: problem('Conflict: the resource exists already, or a concurrent write won.'),
  413: problem('The body (or an uploaded file) is larger than the configured maximum.'),
  422: problem('A valid request that changed nothing: the move is not possible from the current state.'),
  415: problem('The request body is not `application/json`.'),
  429: problem('Too many failed authentications from this client; retry after the `Retry-After` seconds.'),
  503: problem('A dependency is down; retry after the `Retry-After` seconds.'),
} as const;

export const runAsHeader = {
  name: 'svc-run-as',
  in: 'header' as const,
  required: false,
  description: 'Act on behalf of an active user: a `usr-` system id or the user\u2019s e-mail.',
  schema: { type: 'string' as const },
};

/** The problem responses a route may give, by status code. */
export function problemsFor<K extends keyof typeof problemResponses>(
  ...codes: K[]
): Pick<typeof problemResponses, K> {
  return Object.fromEntries(codes.map((code) => [code, problemResponses[code]])) as Pick<
    typeof problemResponses,
    K
  >;
}
