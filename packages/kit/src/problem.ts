/** RFC 9457 problem+json errors and the mapping of every thrown error to one. */
import { BlobStoreUnavailable, BlobTooLarge } from '@docflow/blobstore';
import { BusUnavailable } from '@docflow/bus';
import { type Problem, Rejection, type RejectionKind } from '@docflow/contracts';
import { AppendTooLarge, StoreUnavailable, WrongExpectedRevision } from '@docflow/eventstore';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import type { Logger } from './logger';

const TYPE_BASE = 'https://docflow.dev/problems/';
const RETRY_AFTER_SECONDS = '5';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** A failure the caller should see as it is: status, a stable type slug and a safe detail. */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';
  constructor(
    readonly status: ContentfulStatusCode,
    readonly slug: string,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: Problem['errors'],
    /** Extra response headers, e.g. WWW-Authenticate on a 401. */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? title);
  }

  toProblem(instance?: string): Problem {
    return {
      type: TYPE_BASE + this.slug,
      title: this.title,
      status: this.status,
      ...(this.detail ? { detail: this.detail } : {}),
      ...(instance ? { instance } : {}),
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

/**
 * The contract's 422, in one place. The service API (shared spec, service-api.md, for
 * `PUT docResponse/{respId}` and `POST docResponse`): "422: the request was executed but no data was
 * updated." A valid request the current state makes a no-op — a task already answered, a suspend of a
 * suspended workflow, a file recognition could not read, an Idempotency-Key reused with another body.
 * Every 422 docflow answers is made here: domain code throws `rejections.notApplicable` (mapped to this
 * below), the edge calls `problems.nothingChanged`; `slug` and `title` tell one 422 from another.
 *
 * @example throw problems.nothingChanged('the workflow is suspended already');
 */
export const NOTHING_CHANGED_422 = 422;
const nothingChanged = (
  detail: string,
  slug = 'not-processed',
  title = 'Nothing was changed',
  errors?: Problem['errors'],
) => new ProblemError(NOTHING_CHANGED_422, slug, title, detail, errors);

export const problems = {
  badRequest: (detail: string, errors?: Problem['errors']) =>
    new ProblemError(400, 'validation', 'Invalid request', detail, errors),
  unauthorized: (detail: string, challenge = 'Bearer') =>
    new ProblemError(401, 'unauthorized', 'Unauthorized', detail, undefined, {
      'www-authenticate': challenge,
    }),
  forbidden: (detail: string) => new ProblemError(403, 'forbidden', 'Forbidden', detail),
  notFound: (detail: string) => new ProblemError(404, 'not-found', 'Not found', detail),
  methodNotAllowed: (detail: string, allow: readonly string[]) =>
    new ProblemError(405, 'method-not-allowed', 'Method not allowed', detail, undefined, {
      allow: allow.join(', '),
    }),
  conflict: (detail: string) => new ProblemError(409, 'conflict', 'Conflict', detail),
  preconditionFailed: (detail: string) =>
    new ProblemError(412, 'precondition-failed', 'Precondition failed', detail),
  // The rest of the refused body is not read: the connection closes, so no client sends its next
  // request down a connection the server is about to drop.
  tooLarge: (detail: string) =>
    new ProblemError(413, 'too-large', 'Payload too large', detail, undefined, { connection: 'close' }),
  unsupportedMediaType: (detail: string) =>
    new ProblemError(415, 'unsupported-media-type', 'Unsupported media type', detail),
  /** The contract's 422: executed, nothing changed (NOTHING_CHANGED_422). */
  nothingChanged,
  tooManyRequests: (detail: string, retryAfterSeconds: number) =>
    new ProblemError(429, 'too-many-requests', 'Too many requests', detail, undefined, {
      'retry-after': String(retryAfterSeconds),
    }),
  unavailable: (detail: string) => new ProblemError(503, 'unavailable', 'Service unavailable', detail),
};

/** The status and type of each domain rejection (DESIGN.md, "Errors"); its message is the detail. */
const REJECTION_PROBLEMS: Record<
  RejectionKind,
  (detail: string, errors?: Problem['errors']) => ProblemError
> = {
  invalid: problems.badRequest,
  forbidden: problems.forbidden,
  notFound: problems.notFound,
  conflict: problems.conflict,
  notApplicable: (detail) => problems.nothingChanged(detail),
};

/** Turns zod issues into the `errors` list, each pointing at `<where>.<path>`. */
export function validationProblem(where: string, error: ZodError): ProblemError {
  const errors = error.issues.map((i) => ({
    pointer: [where, ...i.path.map(String)].join('.'),
    message: i.message,
  }));
  return problems.badRequest(`${errors.length} invalid value(s) in the ${where}`, errors);
}

export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...headers },
  });
}

/** Maps any error to a problem; what is not a known failure becomes a 500 that says nothing inside. */
export function toProblemError(err: unknown): ProblemError {
  if (err instanceof ProblemError) return err;
  if (err instanceof Rejection) return REJECTION_PROBLEMS[err.kind](err.message, err.errors);
  if (err instanceof WrongExpectedRevision)
    return problems.conflict('the resource was changed concurrently; read it again and retry');
  if (err instanceof BlobTooLarge) return problems.tooLarge(`the upload exceeds ${err.maxBytes} bytes`);
  if (err instanceof AppendTooLarge) return problems.tooLarge(`the change exceeds ${err.maxBytes} bytes`);
  if (err instanceof StoreUnavailable || err instanceof BusUnavailable || err instanceof BlobStoreUnavailable)
    return problems.unavailable('a storage or messaging dependency is unavailable');
  if (err instanceof HTTPException) {
    if (err.status === 400) return problems.badRequest(err.message || 'malformed request');
    return new ProblemError(err.status as ContentfulStatusCode, 'http', err.message || 'HTTP error');
  }
  return new ProblemError(
    500,
    'internal',
    'Internal server error',
    'the error was logged with the request id',
  );
}

/** Hono `onError` handler: logs the real error, answers problem+json. */
export function handleError(err: Error, c: Context): Response {
  const problem = toProblemError(err);
  const log = c.get('log') as Logger | undefined;
  if (problem.status >= 500) log?.error({ err }, 'request failed');
  const headers = {
    ...problem.headers,
    ...(problem.status === 503 ? { 'retry-after': RETRY_AFTER_SECONDS } : {}),
  };
  return problemResponse(problem.toProblem(c.req.path), headers);
}

export function handleNotFound(c: Context): Response {
  return problemResponse(
    problems.notFound(`no route for ${c.req.method} ${c.req.path}`).toProblem(c.req.path),
  );
}

/** Re-raises another service's problem answer as the same problem (a 5xx stays opaque). */
export async function problemFromResponse(res: Response): Promise<ProblemError> {
  if (res.status >= 500) return problems.unavailable('a service failed to answer');
  const body = (await res.json().catch(() => ({}))) as Partial<Problem>;
  const slug = body.type?.startsWith(TYPE_BASE) ? body.type.slice(TYPE_BASE.length) : 'upstream';
  return new ProblemError(
    res.status as ContentfulStatusCode,
    slug,
    body.title ?? 'Request failed',
    body.detail,
    body.errors,
  );
}
