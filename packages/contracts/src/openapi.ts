/** What the OpenAPI document says besides its routes: its header, where it is served, how callers authenticate. */

/** The document's header for `doc31`: a relative server, so the document holds wherever it is served. */
export const OPENAPI_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'docflow',
    version: '2.0.0',
    description: 'Document management and document workflow service. Errors are RFC 9457 problem+json.',
    license: { name: 'Proprietary', identifier: 'LicenseRef-docflow' },
  },
  servers: [{ url: '/', description: 'The gateway that serves this document.' }],
  security: [{ apiKey: [] }, { sessionCookie: [] }] as Record<string, string[]>[],
};

export const SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'A service account\u2019s API key: `Authorization: Bearer <key>`.',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'docflow_session',
    description:
      'A person\u2019s session, set by `POST /api/auth/v1/login` (the name is DOCFLOW_SESSION_COOKIE). ' +
      'Acts as the person, never with `svc-run-as`; an unsafe request must come from this site.',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The metrics token (DOCFLOW_METRICS_TOKEN), when one is set.',
  },
} as const;
