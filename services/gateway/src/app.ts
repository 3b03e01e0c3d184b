/**
 * The edge: authenticates, resolves svc-run-as, checks roles, validates with the contract's zod
 * schemas, and forwards to the owning service. The OpenAPI document is generated from the same routes.
 */
import {
  addCommentRoute,
  answerTaskRoute,
  CAPABILITY_ROLES,
  CreateDocQuery,
  createAccountRoute,
  createDocumentRoute,
  createWebhookRoute,
  deleteWebhookRoute,
  documentHistoryRoute,
  downloadFileRoute,
  eraseAccountRoute,
  exportDocumentRoute,
  FormName,
  forgetSupplierRoute,
  getAccountRoute,
  getDocumentRoute,
  getFormRoute,
  getMyNotificationsRoute,
  getPageImageRoute,
  getPageLayoutRoute,
  getPersonRoute,
  getRecognitionMemoryRoute,
  getWebhookRoute,
  healthzRoute,
  listAccountsRoute,
  listCommentsRoute,
  listCreatableFormsRoute,
  listFormsRoute,
  listWebhookDeliveriesRoute,
  listWebhooksRoute,
  manageDocumentRoute,
  meRoute,
  metricsRoute,
  OPENAPI_DOCUMENT,
  oidcProvidersRoute,
  PERSON_API_VERSIONS,
  patchAccountRoute,
  putFormRoute,
  putMyNotificationsRoute,
  readyzRoute,
  reassignTaskRoute,
  rebuildViewsRoute,
  SECURITY_SCHEMES,
  setAbsenceRoute,
  signInRoute,
  signOutRoute,
  updatePersonRoute,
  validateRecoDataRoute,
  verifyDocumentRoute,
  viewRoute,
} from '@docflow/contracts';
import type { Logger } from '@docflow/kit';
import {
  type AccessLogLevel,
  CORRELATION_ID_HEADER,
  handleError,
  healthRoutes,
  httpMetrics,
  httpTracing,
  metricsRoutes,
  parseWith,
  problems,
  REQUEST_ID_HEADER,
  type ReadinessCheck,
  requestContext,
  type ServiceClient,
  type ServiceEnv,
  validationProblem,
} from '@docflow/kit/http';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { except } from 'hono/combine';
import { cors } from 'hono/cors';
import { accountFromIdentity, cachedAccountByEmail } from './account-lookup';
import type { AccountsReadModel } from './accounts-read-model';
import { allowedMethods } from './allowed-methods';
import { authFailureBrake } from './auth-failures';
import { authenticate, RUN_AS_HEADER, requireRole } from './authenticate';
import type { EdgeOptions } from './config';
import { consoleRoutes } from './console';
import { docsRoutes } from './docs';
import { forward, type GatewayContext } from './forward';
import { jsonBody } from './json-body';
import { OIDC_PATHS, oidcRoutes } from './oidc-routes';
import { readOwnAccountWrite } from './own-account-write';
import { passedHeaders } from './passed-headers';
import { personalTokenRoutes } from './personal-token-routes';
import { sessionAuthenticator, sessionFromIdentity } from './session-auth';
import type { SessionsReadModel } from './sessions-read-model';
import { signInRoutes } from './sign-in-routes';

export interface GatewayDeps {
  services: {
    identity: ServiceClient;
    document: ServiceClient;
    webhooks: ServiceClient;
    recognition: ServiceClient;
  };
  accounts: AccountsReadModel;
  sessions: SessionsReadModel;
  internalToken: string;
  log: Logger;
  accessLogLevel?: AccessLogLevel;
  readiness: Record<string, ReadinessCheck>;
  /**
   * How long a command's answer waits for the gateway's own read model to catch up, and a run-as for an
   * account identity knows and the read model has not received yet.
   */
  readYourWritesTimeoutMs?: number;
  edge: EdgeOptions;
  /** When set, `/metrics` needs it as a bearer token. */
  metricsToken?: string;
}

/** Validation targets named as a client thinks of them. */
const WHERE: Record<string, string> = {
  json: 'body',
  param: 'path',
  query: 'query',
  header: 'header',
  form: 'body',
};

const JSON_TYPE = /^application\/([a-z.+-]+\+)?json(\s*;.*)?$/i;

const MULTIPART_TYPE = /^multipart\/form-data\s*;\s*boundary=/i;
/** POST commands that take no body: any content type passes. */
const BODYLESS_POST =
  /^\/api\/(admin\/v1\/(views\/rebuild|accounts\/[^/]+\/erase)|auth\/v1\/(oidc\/)?logout)$/;
/** Routes that take no credentials (they start and end a session). */
const PUBLIC_PATHS = [signInRoute.path, signOutRoute.path, oidcProvidersRoute.path, `${OIDC_PATHS}/*`];
/** The one route whose body is multipart, streamed through unparsed. */
const CREATE_DOCUMENT_PATH = /^\/api\/v2\/docForm\/form\/[^/]+$/;

/** Account and person bodies are a few fields; documents and forms may carry large values. */
const ACCOUNT_JSON_MAX_BYTES = 64 * 1024;
const ACCOUNT_PATHS = /^\/api\/(admin\/v1\/accounts|v[12]\/person)(\/|$)/;

/** 415 for a body of the wrong type, before validation would call it merely invalid. */
const bodyType: MiddlewareHandler = function bodyTypeMiddleware(c, next) {
  if (['POST', 'PUT', 'PATCH'].includes(c.req.method)) {
    const type = c.req.header('content-type') ?? '';
    if (CREATE_DOCUMENT_PATH.test(c.req.path)) {
      if (!MULTIPART_TYPE.test(type))
        throw problems.unsupportedMediaType('the body must be multipart/form-data');
    } else if (!JSON_TYPE.test(type) && !BODYLESS_POST.test(c.req.path)) {
      throw problems.unsupportedMediaType('the body must be application/json');
    }
  }
  return next();
};

export function createGatewayApp(deps: GatewayDeps): OpenAPIHono<ServiceEnv> {
  const { services, accounts, internalToken } = deps;
  const waitMs = deps.readYourWritesTimeoutMs ?? 5000;
  const app = new OpenAPIHono<ServiceEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationProblem(WHERE[result.target] ?? result.target, result.error);
    },
  });
  const allowed = allowedMethods(app);
  app.onError(handleError);
  app.notFound(allowed.notFound);
  app.use(httpTracing('gateway'));
  app.use(requestContext(deps.log, deps.accessLogLevel));
  app.use(httpMetrics('gateway'));
  app.route('/', healthRoutes(deps.readiness));
  app.route('/', metricsRoutes(deps.metricsToken));
  app.route('/', docsRoutes());
  app.route('/', consoleRoutes(deps.edge.oidcProviders.map((p) => new URL(p.issuer).origin)));
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES))
    app.openAPIRegistry.registerComponent('securitySchemes', name, scheme);
  for (const route of [healthzRoute, readyzRoute, metricsRoute]) app.openAPIRegistry.registerPath(route);
  app.doc31('/openapi.json', OPENAPI_DOCUMENT);

  if (deps.edge.corsOrigins.length)
    app.use(
      '/api/*',
      cors({
        origin: deps.edge.corsOrigins.includes('*') ? '*' : deps.edge.corsOrigins,
        allowHeaders: [
          'authorization',
          'content-type',
          RUN_AS_HEADER,
          REQUEST_ID_HEADER,
          CORRELATION_ID_HEADER,
          'if-match',
          'if-none-match',
          'idempotency-key',
        ],
        exposeHeaders: [
          'svc-total-count',
          'svc-total-count-relation',
          'x-error',
          'content-disposition',
          'etag',
          REQUEST_ID_HEADER,
          CORRELATION_ID_HEADER,
        ],
        maxAge: 600,
      }),
    );
  // Before authentication: a preflight or an OPTIONS carries no credentials.
  app.use('/api/*', allowed.options);
  const accountAtIdentity = accountFromIdentity(services.identity, internalToken);
  const brake = authFailureBrake(deps.edge.authFailuresPerMinute);
  const sessionAuth = sessionAuthenticator({
    sessions: deps.sessions,
    accounts,
    options: deps.edge.sessions,
    brake,
    runAsHeader: RUN_AS_HEADER,
    lookUp: sessionFromIdentity(services.identity, internalToken),
    log: deps.log,
  });
  app.use(
    '/api/*',
    except(
      PUBLIC_PATHS,
      authenticate(
        accounts,
        {
          byEmail: cachedAccountByEmail(accountAtIdentity, (id) => accounts.byId(id)?.active === true),
          byId: accountAtIdentity,
          waitMs,
        },
        brake,
        sessionAuth,
      ),
    ),
  );
  app.use('/api/*', bodyType);
  app.use(
    '/api/*',
    jsonBody((path) => {
      // The multipart create streams through; the document service bounds it.
      if (CREATE_DOCUMENT_PATH.test(path)) return undefined;
      return ACCOUNT_PATHS.test(path) ? ACCOUNT_JSON_MAX_BYTES : deps.edge.maxJsonBytes;
    }),
  );
  app.use('/api/admin/*', requireRole(CAPABILITY_ROLES.administer));
  // The service answers in the contract's shapes (validated there); the gateway passes the answer on
  // as it is, which the route's typed-response check cannot see: hence the cast to `never`.
  const identity = (c: GatewayContext, body?: unknown) =>
    forward(c, services.identity, internalToken, { body }) as Promise<never>;
  const document = (c: GatewayContext, body?: unknown) =>
    forward(c, services.document, internalToken, { body, headers: passedHeaders(c) }) as Promise<never>;
  const recognition = (c: GatewayContext) =>
    forward(c, services.recognition, internalToken, {}) as Promise<never>;

  const ownAccountWrite = readOwnAccountWrite(accounts, waitMs, deps.log);
  /** The account command forwarded to identity, answered once this gateway's read model has its effect. */
  const accountCommand = async (c: GatewayContext, body?: unknown) =>
    (await ownAccountWrite(await identity(c, body))) as never;

  for (const version of PERSON_API_VERSIONS) {
    app.openapi(getPersonRoute(version), (c) => identity(c));
    app.use(`/api/${version}/person`, requireRole(CAPABILITY_ROLES.administer));
    app.openapi(updatePersonRoute(version), (c) => identity(c, c.req.valid('json')));
  }
  app.openapi(meRoute, (c) => identity(c));
  app.openapi(setAbsenceRoute, (c) => accountCommand(c, c.req.valid('json')));
  app.openapi(getMyNotificationsRoute, (c) => identity(c));
  app.openapi(putMyNotificationsRoute, (c) => identity(c, c.req.valid('json')));
  app.openapi(createAccountRoute, (c) => accountCommand(c, c.req.valid('json')));
  app.openapi(listAccountsRoute, (c) => identity(c));
  app.openapi(getAccountRoute, (c) => identity(c));
  app.openapi(patchAccountRoute, (c) => accountCommand(c, c.req.valid('json')));
  app.openapi(eraseAccountRoute, (c) => accountCommand(c));

  const webhooks = (c: GatewayContext, body?: unknown) =>
    forward(c, services.webhooks, internalToken, { body }) as Promise<never>;
  app.openapi(createWebhookRoute, (c) => webhooks(c, c.req.valid('json')));
  app.openapi(listWebhooksRoute, (c) => webhooks(c));
  app.openapi(getWebhookRoute, (c) => webhooks(c));
  app.openapi(deleteWebhookRoute, (c) => webhooks(c));
  app.openapi(listWebhookDeliveriesRoute, (c) => webhooks(c));

  const { signOut } = signInRoutes(app, {
    identity: services.identity,
    internalToken,
    sessions: deps.sessions,
    authenticator: sessionAuth,
    options: deps.edge.sessions,
    brake,
    failuresPerMinute: deps.edge.authFailuresPerMinute,
    waitMs,
    log: deps.log,
  });
  oidcRoutes(app, {
    providers: deps.edge.oidcProviders,
    identity: services.identity,
    accounts,
    internalToken,
    sessions: deps.sessions,
    options: deps.edge.sessions,
    brake,
    signOut,
    waitMs,
    log: deps.log,
  });

  personalTokenRoutes(app, {
    identity: services.identity,
    internalToken,
    accounts,
    sessions: sessionAuth,
    waitMs,
    log: deps.log,
  });

  app.openapi(putFormRoute, (c) => document(c, c.req.valid('json')));
  app.openapi(listFormsRoute, (c) => document(c));
  app.openapi(getFormRoute, (c) => document(c));
  // The correction memory of a form's recognition is the recognition service's (docs/decisions.md).
  app.openapi(getRecognitionMemoryRoute, (c) => recognition(c));
  app.openapi(forgetSupplierRoute, (c) => recognition(c));
  app.openapi(listCreatableFormsRoute, (c) => document(c));
  app.openapi(rebuildViewsRoute, (c) => document(c));

  // Registered before `{id}` routes: `view/{viewId}` is never read as a document id.
  app.openapi(viewRoute, (c) => document(c));
  app.openapi(getDocumentRoute, (c) => document(c));
  // The history streams as NDJSON when asked to: the caller's Accept is passed on.
  app.openapi(
    documentHistoryRoute,
    (c) =>
      forward(c, services.document, internalToken, {
        headers: { accept: c.req.header('accept') ?? 'application/json' },
      }) as Promise<never>,
  );
  app.openapi(verifyDocumentRoute, (c) => document(c));
  app.openapi(exportDocumentRoute, (c) => document(c));
  app.openapi(downloadFileRoute, (c) => document(c));
  app.openapi(getPageLayoutRoute, (c) => document(c));
  app.openapi(getPageImageRoute, (c) => document(c));
  app.openapi(manageDocumentRoute, (c) => document(c, c.req.valid('json')));
  app.openapi(answerTaskRoute, (c) => document(c, c.req.valid('json')));
  app.openapi(reassignTaskRoute, (c) => document(c, c.req.valid('json')));
  app.openapi(listCommentsRoute, (c) => document(c));
  app.openapi(addCommentRoute, (c) => document(c, c.req.valid('json')));
  app.openapi(validateRecoDataRoute, (c) => document(c, c.req.valid('json')));
  // The create body streams through unparsed (files are never held whole in memory), so only the
  // path and query are validated here; the route is registered for the OpenAPI document alone.
  app.openAPIRegistry.registerPath(createDocumentRoute);
  app.post('/api/v2/docForm/form/:formName', (c) => {
    parseWith('path', FormName, c.req.param('formName'));
    parseWith('query', CreateDocQuery, c.req.query());
    return forward(c, services.document, internalToken, {
      body: c.req.raw.body ?? undefined,
      headers: { 'content-type': c.req.header('content-type') ?? '', ...passedHeaders(c) },
    });
  });
  return app;
}
