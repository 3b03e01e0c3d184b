/**
 * The typed docflow client: every operation of the OpenAPI document through `api` (openapi-fetch over
 * the generated `paths`), refusals thrown as `DocflowProblem`, plus what a plain call cannot do well:
 * the streamed multipart create, and paging through a view by `svc-total-count`.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { multipartBody, type UploadFile } from './multipart';
import type { components, operations, paths } from './openapi';
import { problemOf } from './problem';

export type DocForm = components['schemas']['DocForm'];
export type ViewQuery = NonNullable<operations['listView']['parameters']['query']>;
export type ViewId = operations['listView']['parameters']['path']['viewId'];
type CreateQuery = operations['createDocument']['parameters']['query'];
type CreateParts = operations['createDocument']['requestBody']['content']['multipart/form-data'];

export interface DocflowClientOptions {
  /** Where the gateway serves the API, e.g. `https://docflow.example.com`. */
  baseUrl: string;
  /** A service account's API key. */
  apiKey: string;
  /** Act on behalf of this user (`usr-…` id or e-mail): sent as `svc-run-as` on every call. */
  runAs?: string;
  /** Another fetch (tests, proxies). */
  fetch?: (request: Request) => Promise<Response>;
}

export interface CreateDocumentInput {
  docForm?: CreateParts['docForm'];
  docResponse?: CreateParts['docResponse'];
  files?: readonly UploadFile[];
  query?: CreateQuery;
  /** Sent as `Idempotency-Key`: a retry with the same key and body creates nothing twice. */
  idempotencyKey?: string;
}

export interface Page<T> {
  items: T[];
  /** How many match the view's filters, before paging (`svc-total-count`). */
  total: number;
  /** `gte`: `total` is a lower bound (`svc-total-count-relation`; a search with many matches). */
  totalRelation: 'eq' | 'gte';
  first: number;
}

export interface DocflowClient {
  /** Every operation, typed by path and method: `api.GET('/api/v2/docForm/{id}', { params: … })`. */
  api: Client<paths>;
  /** The same client acting on behalf of another user. */
  as(runAs: string): DocflowClient;
  /** Creates a document; files are streamed from their sources, never held whole. */
  createDocument(formName: string, input?: CreateDocumentInput): Promise<DocForm>;
  /** One page of a view, with the total count the API reports. */
  viewPage(viewId: ViewId, query?: ViewQuery): Promise<Page<DocForm>>;
  /** Every document of a view, page after page, until `svc-total-count` is reached (or a page is empty). */
  viewAll(viewId: ViewId, query?: Omit<ViewQuery, 'first'>): AsyncGenerator<DocForm>;
}

/** Turns every refusal (4xx, 5xx) into a thrown `DocflowProblem`. */
const throwProblems: Middleware = {
  async onResponse({ response }) {
    if (response.status >= 400) throw await problemOf(response);
    return undefined;
  },
};

/** @example const docflow = createDocflowClient({ baseUrl, apiKey }); await docflow.api.GET('/healthz'); */
export function createDocflowClient(options: DocflowClientOptions): DocflowClient {
  const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}` };
  if (options.runAs) headers['svc-run-as'] = options.runAs;
  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  api.use(throwProblems);

  async function viewPage(viewId: ViewId, query: ViewQuery = {}): Promise<Page<DocForm>> {
    const { data, response } = await api.GET('/api/v2/docForm/view/{viewId}', {
      params: { path: { viewId }, query },
    });
    return {
      items: data ?? [],
      total: Number(response.headers.get('svc-total-count') ?? 0),
      totalRelation: response.headers.get('svc-total-count-relation') === 'gte' ? 'gte' : 'eq',
      first: query.first ?? 0,
    };
  }

  return {
    api,
    as: (runAs) => createDocflowClient({ ...options, runAs }),
    async createDocument(formName, input = {}) {
      const body = multipartBody(
        { docForm: input.docForm, docResponse: input.docResponse },
        input.files ?? [],
      );
      const { data } = await api.POST('/api/v2/docForm/form/{formName}', {
        params: { path: { formName }, query: input.query ?? {} },
        body: {},
        // The parts are encoded and streamed here; openapi-fetch passes the stream on as the body.
        bodySerializer: () => body.stream as unknown as string,
        headers: {
          'content-type': `multipart/form-data; boundary=${body.boundary}`,
          ...(input.idempotencyKey ? { 'idempotency-key': input.idempotencyKey } : {}),
        },
        duplex: 'half',
      });
      return data!;
    },
    viewPage,
    async *viewAll(viewId, query = {}) {
      let first = 0;
      for (;;) {
        const page = await viewPage(viewId, { ...query, first });
        yield* page.items;
        first += page.items.length;
        if (page.items.length === 0 || (first >= page.total && page.totalRelation === 'eq')) return;
      }
    },
  };
}
