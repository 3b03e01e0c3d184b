/** problem+json answers (RFC 9457) as exceptions a caller can catch by class or by status. */
import type { components } from './openapi';

export type Problem = components['schemas']['Problem'];

/**
 * What the API answered when it refused: the problem document, its status and the answer's headers
 * (`Retry-After` on 429 and 503, `X-Error`).
 * @example try { … } catch (e) { if (e instanceof DocflowProblem && e.status === 412) reload(); }
 */
export class DocflowProblem extends Error {
  override readonly name = 'DocflowProblem';
  readonly status: number;
  readonly problem: Problem;
  readonly headers: Headers;

  constructor(problem: Problem, headers: Headers) {
    super(`${problem.status} ${problem.title}${problem.detail ? `: ${problem.detail}` : ''}`);
    this.status = problem.status;
    this.problem = problem;
    this.headers = headers;
  }

  /** Seconds to wait before retrying, when the answer said (429, 503, 409 on a running idempotent request). */
  get retryAfterSeconds(): number | undefined {
    const value = Number(this.headers.get('retry-after') ?? Number.NaN);
    return Number.isFinite(value) ? value : undefined;
  }
}

/** Reads a refusal as a problem; an answer that is not problem+json still becomes one, from its status. */
export async function problemOf(response: Response): Promise<DocflowProblem> {
  const text = await response.text();
  let problem: Problem = {
    type: 'about:blank',
    title: response.statusText || 'Error',
    status: response.status,
  };
  if (/^application\/(problem\+)?json/i.test(response.headers.get('content-type') ?? '')) {
    try {
      problem = { ...problem, ...(JSON.parse(text) as Problem), status: response.status };
    } catch {
      problem.detail = text.slice(0, 200);
    }
  }
  return new DocflowProblem(problem, response.headers);
}
