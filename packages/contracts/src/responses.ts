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
  412: problem('`If-Match` names a revision the document has moved on from: read it again (its `ETag`).'),
  413: problem('The body (or an uploaded file) is larger than the configured maximum.'),
  422: problem(
    'A valid request that changed nothing: the move is not possible from the current state (or an Idempotency-Key was reused with another body).',
  ),
  415: problem('The request body is not `application/json`.'),
  429: problem(
    'Too many failed authentications from this client, or (a new `Idempotency-Key`) the account holds as many keys as it may; retry after the `Retry-After` seconds.',
  ),
  503: problem('A dependency is down; retry after the `Retry-After` seconds.'),
} as const;

/** An optional request header the OpenAPI document describes. */
const optionalHeader = (name: string, description: string, schema: Record<string, unknown> = {}) => ({
  name,
  in: 'header' as const,
  required: false,
  description,
  schema: { type: 'string' as const, ...schema },
});

export const runAsHeader = optionalHeader(
  'svc-run-as',
  'Act on behalf of an active user: a `usr-` system id or the user\u2019s e-mail. The user\u2019s document ' +
    'rights apply (authorship, participation, deputies); a role (svcAdminSysRW, svcAdminDocsRW, ' +
    'svcAdminDocRW, svcAdminDocRWD, svcAuditR) counts only when the service account holds it too, so ' +
    'run-as never adds a right the service account was not granted.',
);

/** The problem responses a route may give, by status code. */
export function problemsFor<K extends keyof typeof problemResponses>(
  ...codes: K[]
): Pick<typeof problemResponses, K> {
  return Object.fromEntries(codes.map((code) => [code, problemResponses[code]])) as Pick<
    typeof problemResponses,
    K
  >;
}

/** The document's entity tag: `"<_meta._rev>"`, strong. */
export const etagHeader = {
  ETag: {
    schema: { type: 'string' as const },
    description: 'The document\u2019s revision as a strong entity tag: `"<_meta._rev>"`.',
  },
};

export const ifNoneMatchHeader = optionalHeader(
  'If-None-Match',
  'The `ETag` of the copy the caller holds: 304 without a body while the document is still at it.',
);

export const ifMatchHeader = optionalHeader(
  'If-Match',
  'Act only if the document is still at this `ETag` (`"<_meta._rev>"`, strong comparison); otherwise 412 and nothing changes. Without it the request acts whatever the revision.',
);

export const idempotencyKeyHeader = optionalHeader(
  'Idempotency-Key',
  'Makes a retry safe (draft-ietf-httpapi-idempotency-key-header): the same key and body from the same principal within 24 hours answer the first success again (status, headers, body; `Idempotent-Replayed: true`) and write nothing; while the first request still runs, 409 with `Retry-After`; the same key with another body, 422. A refused or failed request keeps no answer. A service account holds at most 20,000 keys (8 MiB) within 24 hours: past that a new key is 429 with `Retry-After`, and nothing runs. 1 to 255 printable ASCII characters, bare or as a quoted string.',
  { minLength: 1, maxLength: 257 },
);
