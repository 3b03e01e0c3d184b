/**
 * Fuzzing from the published OpenAPI document: schemathesis (installed by
 * infra/local/install-schemathesis.sh) runs its examples, coverage, fuzzing and stateful phases (the
 * last one follows the document's links) against an embedded instance, and checks every answer for a
 * 5xx, an undocumented status code or content type, and a body its schema does not describe.
 *
 * The fuzzer is a service account of its own holding every role; the bootstrap key never reaches it,
 * and a hook (schemathesis_hooks.py) keeps it from changing what must survive the run: its own
 * account, the bootstrap account, the fixture tasks' assignee and the fixture documents it reads.
 * Fixtures (persons, a form, documents with a file, open tasks, recognised parts) are drawn from for
 * the parameters that name things, so that requests reach past 404.
 *
 * Bounded by DOCFLOW_FUZZ_MAX_TIME seconds of fuzzing (default 150); DOCFLOW_FUZZ_SEED picks another
 * sequence of generated inputs (default 1: the same inputs every run).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ADMIN_ACCOUNT_ID, ROLES } from '@docflow/contracts';
import { textPdf } from '@docflow/recognition';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { REPO_ROOT } from '../support/process';
import { startEmbedded, type Target } from '../support/targets';

const MAX_TIME_S = Number(process.env.DOCFLOW_FUZZ_MAX_TIME ?? 150);
const SEED = process.env.DOCFLOW_FUZZ_SEED ?? '1';
/** Test cases per operation and phase; the time budget above is what bounds the run here. */
const MAX_EXAMPLES = 100;
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
];
const HOOKS = join(REPO_ROOT, 'tests/fuzz/schemathesis_hooks.py');

interface Run {
  code: number | null;
  output: string;
}

/** Runs a command to its end, its stdout and stderr kept together. */
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** The `st` command, installed (or found in the cache) by the project's own script. */
async function installSchemathesis(): Promise<string> {
  const install = await run('bash', [join(REPO_ROOT, 'infra/local/install-schemathesis.sh')]);
  assert.equal(install.code, 0, `install-schemathesis.sh failed:\n${install.output}`);
  return install.output.trim().split('\n').at(-1)!;
}

/** The gateway's access-log lines (one per answered request) in `output`, by status class. */
function answeredRequests(output: string): Record<string, number> {
  const byClass: Record<string, number> = {};
  for (const line of output.split('\n')) {
    if (!line.includes('"msg":"request"') || !line.includes('"component":"gateway"')) continue;
    const status = (JSON.parse(line) as { status: number }).status;
    const key = `${Math.floor(status / 100)}xx`;
    byClass[key] = (byClass[key] ?? 0) + 1;
  }
  return byClass;
}

const total = (byClass: Record<string, number>) => Object.values(byClass).reduce((a, b) => a + b, 0);

/** Known values (fixtures) schemathesis draws from, by dictionary name. */
type Dictionaries = Record<string, string[]>;

interface Draw {
  dictionary: string;
  /** How often the value comes from the dictionary; otherwise it is generated. */
  probability: number;
}
const draw = (dictionary: string, probability: number): Draw => ({ dictionary, probability });

/**
 * Which parameters draw from which dictionary, in the operations named (or in every one). One entry
 * per operation: schemathesis takes an operation's parameters from the first entry that names it.
 */
const DRAWS: { operations?: string[]; parameters: Record<string, Draw> }[] = [
  { parameters: { 'header.svc-run-as': draw('runAs', 0.2) } },
  { operations: ['getDocument', 'documentHistory'], parameters: { 'path.id': draw('documents', 0.5) } },
  // Documents of their own: the hook keeps moves (block and delete among them) off the others.
  { operations: ['manageDocument'], parameters: { 'path.id': draw('managed', 0.5) } },
  {
    operations: ['downloadFile'],
    parameters: { 'path.id': draw('draftIds', 0.5), 'path.fileId': draw('draftFiles', 0.5) },
  },
  // Answering needs the task's document, its respId and its assignee (run-as) together: drawn often.
  {
    operations: ['answerTask'],
    parameters: {
      'path.id': draw('taskDocuments', 0.8),
      'path.respId': draw('respIds', 0.8),
      'header.svc-run-as': draw('assignees', 0.8),
    },
  },
  {
    operations: ['validateRecoData'],
    parameters: { 'path.id': draw('invoices', 0.8), 'path.recoId': draw('recoIds', 0.8) },
  },
  {
    operations: ['getAccount', 'patchAccount', 'getPersonV1', 'getPersonV2'],
    parameters: { 'path.id': draw('persons', 0.5) },
  },
  {
    operations: ['getForm', 'putForm', 'createDocument'],
    parameters: { 'path.formName': draw('forms', 0.5) },
  },
];

/** schemathesis's configuration file. Strings are JSON-quoted, which TOML reads alike. */
function configToml(dictionaries: Dictionaries): string {
  const q = JSON.stringify;
  const list = (values: string[]) => `[${values.map((v) => q(v)).join(', ')}]`;
  const table = (parameters: Record<string, Draw>) =>
    Object.entries(parameters).map(
      ([name, d]) => `${q(name)} = { dictionary = ${q(d.dictionary)}, probability = ${d.probability} }`,
    );
  return [
    `hooks = ${q(HOOKS)}`,
    ...Object.entries(dictionaries).map(
      ([name, values]) => `[dictionaries.${name}]\nvalues = ${list(values)}`,
    ),
    ...DRAWS.map((d) =>
      d.operations
        ? `[[operations]]\ninclude-operation-id = ${list(d.operations)}\nparameters = { ${table(d.parameters).join(', ')} }`
        : `[parameters]\n${table(d.parameters).join('\n')}`,
    ),
  ].join('\n\n');
}

describe('OpenAPI fuzzing with schemathesis [embedded]', { timeout: 15 * 60_000 }, () => {
  let target: Target;
  let api: Api;
  let workDir: string;
  let fuzzerKey: string;
  /** What the hook keeps the fuzzer from changing, by environment variable. */
  let protectedIds: Record<string, string>;
  let dictionaries: Dictionaries;

  /** A document of the fuzzer's with one attachment; `start` begins its workflow (tasks for bob). */
  async function fixtureDocument(formName: string, start: boolean) {
    const doc = await createDoc(target.baseUrl, fuzzerKey, formName, {
      docForm: { valuesByTags: { subject: 'Fixture' }, _tags: ['fuzz'] },
      docResponse: start ? { taskstatus: 100 } : undefined,
      files: [{ name: 'fixture.txt', content: 'fixture attachment\n' }],
    });
    assert.equal(doc.status, 201, doc.text);
    return doc.body as { _id: string; _id_web: string; filesList: { id: string }[] };
  }

  before(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'docflow-fuzz-'));
    // Its generated sign-ins fail by the hundred: the brake on failures would answer it 429 for the rest.
    target = await startEmbedded({ env: { DOCFLOW_AUTH_FAILURES_PER_MINUTE: '0' } });
    api = apiClient(target.baseUrl);
    const admin = target.adminKey;
    // The bootstrap key is used for this set-up only: the fuzzer gets an account (and key) of its own.
    const fuzzer = await api('POST', '/api/admin/v1/accounts', {
      key: admin,
      body: {
        kind: 'service',
        email: 'fuzzer@example.com',
        name_first: 'Fuzz',
        name_last: 'Er',
        roles: ROLES,
      },
    });
    assert.equal(fuzzer.status, 201, fuzzer.text);
    fuzzerKey = fuzzer.body.apiKey;
    // The sample memo's participants, so workflow moves on fixture documents can succeed.
    const emails = ['alice@example.com', 'bob@example.com', 'carol@example.com', 'dave@example.com'];
    const persons: string[] = [];
    for (const email of emails) persons.push(await createPerson(api, admin, email));
    const form = await api('PUT', '/api/admin/v1/forms/fuzzform', {
      key: admin,
      body: {
        name: 'fuzzform',
        title: 'Fuzz fixture',
        formsystype: 9,
        tags: { subject: 'string', lines: 'table' },
        workflow: { approval: { stages: [{ participants: ['bob@example.com'] }] }, dueDays: 1 },
      },
    });
    assert.equal(form.status, 201, form.text);

    const draft = await fixtureDocument('memo', false);
    const inApproval = [await fixtureDocument('memo', true), await fixtureDocument('fuzzform', true)];
    const managed = [await fixtureDocument('memo', false), await fixtureDocument('memo', true)];
    const respIds: string[] = [];
    for (const doc of inApproval) {
      const task = await api('GET', `/api/v2/docForm/${doc._id}?embed=docResponse`, {
        key: fuzzerKey,
        runAs: 'bob@example.com',
      });
      assert.equal(task.status, 200, task.text);
      respIds.push(task.body.docResponse.respId);
    }
    // An invoice with a text PDF: recognised from its text layer (no OCR), so it has recoData.
    const created = await createDoc(target.baseUrl, fuzzerKey, 'invoice', {
      files: [
        {
          name: 'invoice.pdf',
          type: 'application/pdf',
          content: textPdf([[{ text: 'INVOICE' }, { text: 'Invoice No. INV-7' }, { text: 'Total: 12.50' }]]),
        },
      ],
    });
    assert.equal(created.status, 201, created.text);
    const invoice = await eventually(
      () => api('GET', `/api/v2/docForm/${created.body._id}?embed=recoData`, { key: fuzzerKey }),
      (r) => r.body.recoStatus !== 'pending',
      60_000,
    );
    assert.equal(invoice.body.recoStatus, 'done', invoice.text);

    const documents = [draft, ...inApproval, invoice.body];
    const ids = (docs: { _id: string; _id_web: string }[]) => docs.flatMap((d) => [d._id, d._id_web]);
    const bob = persons[1]!;
    protectedIds = {
      DOCFLOW_FUZZ_PROTECTED_ACCOUNTS: [fuzzer.body._id_sys, ADMIN_ACCOUNT_ID, bob].join(','),
      DOCFLOW_FUZZ_PROTECTED_DOCUMENTS: ids(documents).join(','),
    };
    dictionaries = {
      documents: ids(documents),
      managed: ids(managed),
      draftIds: ids([draft]),
      draftFiles: [draft.filesList[0]!.id],
      taskDocuments: ids(inApproval),
      respIds,
      assignees: [bob, 'bob@example.com'],
      invoices: ids([invoice.body]),
      recoIds: invoice.body.recoData.map((r: { _id: string }) => r._id),
      persons,
      runAs: [...persons, ...emails],
      forms: ['memo', 'invoice', 'contract', 'fuzzform'],
    };
  });

  after(async () => {
    await target?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('answers every generated request without a 5xx, with a documented status, content type and schema', async () => {
    const st = await installSchemathesis();
    const configFile = join(workDir, 'schemathesis.toml');
    writeFileSync(configFile, configToml(dictionaries));
    const before = answeredRequests(target.output());
    const started = Date.now();
    const fuzz = await run(
      st,
      [
        '--config-file',
        configFile,
        'run',
        `${target.baseUrl}/openapi.json`,
        '--header',
        `Authorization: Bearer ${fuzzerKey}`,
        '--checks',
        CHECKS.join(','),
        '--max-examples',
        String(MAX_EXAMPLES),
        '--max-time',
        String(MAX_TIME_S),
        // One worker: with two, hypothesis's ast.parse calls race in CPython 3.11 ("AST constructor
        // recursion depth mismatch"), an error of the fuzzer's own that fails the run at random.
        '--workers',
        '1',
        '--request-timeout',
        '15',
        '--continue-on-failure',
        '--suppress-health-check',
        'all',
        '--generation-database',
        'none',
        '--seed',
        SEED,
        '--no-color',
      ],
      {
        // schemathesis writes nothing into the repository (its example database is off, too).
        cwd: workDir,
        env: { ...process.env, ...protectedIds },
      },
    );
    const seconds = Math.round((Date.now() - started) / 1000);
    const after = answeredRequests(target.output());
    const answered = Object.fromEntries(
      Object.entries(after).map(([k, n]) => [k, n - (before[k] ?? 0)] as const),
    );
    const cases = /Test cases:\s*\n\s*(\d+) generated/.exec(fuzz.output)?.[1] ?? '?';
    // The phases as they ran; after the first ==== heading errors, failures, warnings and the summary
    // (all of the output when schemathesis stopped before its report).
    const at = (heading: RegExp) => {
      const i = fuzz.output.search(heading);
      return i < 0 ? fuzz.output.length : i;
    };
    const report = fuzz.output.slice(at(/^=+ [A-Z][A-Za-z ]+ =+$/m));
    console.log(
      `schemathesis: ${cases} test cases, ${total(answered)} requests answered in ${seconds} s ` +
        `(${JSON.stringify(answered)}), exit code ${fuzz.code}\n` +
        fuzz.output.slice(0, at(/^=+ [A-Z][A-Za-z ]+ =+$/m)) +
        fuzz.output.slice(at(/^=+ SUMMARY =+$/m)),
    );
    assert.equal(answered['5xx'] ?? 0, 0, 'no request may be answered with a 5xx');
    assert.equal(fuzz.code, 0, `schemathesis found failures or errors:\n${report}`);
    // The bootstrap account is untouched: its key still works and it holds every role.
    const admin = await api('GET', `/api/admin/v1/accounts/${ADMIN_ACCOUNT_ID}`, { key: target.adminKey });
    assert.equal(admin.status, 200, admin.text);
    assert.deepEqual([...admin.body.roles].sort(), [...ROLES].sort());
  });
});
