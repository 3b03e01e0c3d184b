/** The architecture test: the workspace keeps its dependency rules, and the rules catch what they name. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Edge, specifiersOf, targetOf, type Unit, violation, workspaceEdges } from './import-graph';

const root = new URL('../..', import.meta.url).pathname;

const svc = (name: string): Unit => ({ kind: 'services', name });
const pkg = (name: string): Unit => ({ kind: 'packages', name });
const edge = (from: Unit, to: Unit, file = 'x.ts'): Edge => ({
  from,
  to,
  where: `${from.kind}/${from.name}/src/${file}`,
  specifier: 'x',
});

describe('the rules', () => {
  const cases: Array<[name: string, edge: Edge, broken: boolean]> = [
    ['a service imports another service', edge(svc('document'), svc('workflow')), true],
    ['a service imports a package', edge(svc('document'), pkg('workflow-model')), false],
    ['a service imports itself', edge(svc('document'), svc('document')), false],
    ['the composition root imports a service', edge(svc('embedded'), svc('workflow')), false],
    ['a package imports a service', edge(pkg('kit'), svc('identity')), true],
    ['a package imports another package', edge(pkg('kit'), pkg('eventstore')), false],
    ['contracts imports another package', edge(pkg('contracts'), pkg('kit')), true],
    ['contracts imports itself', edge(pkg('contracts'), pkg('contracts')), false],
    ['workflow-model imports contracts', edge(pkg('workflow-model'), pkg('contracts')), false],
    ['workflow-model imports kit', edge(pkg('workflow-model'), pkg('kit')), true],
    ['document-model imports workflow-model', edge(pkg('document-model'), pkg('workflow-model')), false],
    ['document-model imports kit', edge(pkg('document-model'), pkg('kit')), true],
    ['a businessLogic.ts imports kit', edge(svc('workflow'), pkg('kit'), 'businessLogic.ts'), true],
    ['an access.ts imports kit', edge(svc('document'), pkg('kit'), 'access.ts'), true],
    [
      'a businessLogic.ts imports contracts',
      edge(svc('identity'), pkg('contracts'), 'businessLogic.ts'),
      false,
    ],
    ['a route file imports kit', edge(svc('document'), pkg('kit'), 'documents-api.ts'), false],
    [
      'a unit test of decisions imports kit',
      edge(svc('files'), pkg('kit'), 'businessLogic.unit.test.ts'),
      false,
    ],
  ];
  for (const [name, e, broken] of cases)
    it(`${name}: ${broken ? 'refused' : 'allowed'}`, () => assert.equal(violation(e) !== undefined, broken));
});

describe('reading the graph', () => {
  const packages = new Map([
    ['@docflow/workflow', svc('workflow')],
    ['@docflow/contracts', pkg('contracts')],
  ]);
  it('finds static, type-only, dynamic, re-export and side-effect imports, not those in comments', () => {
    const source = [
      "import { a } from '@docflow/contracts';",
      "import type {\n  B,\n} from '../../workflow/src/b';",
      "export * from './c';",
      "import './d';",
      "const e = await import('@docflow/workflow/e');",
      "// import { f } from 'commented-out';",
      'const g = "from \'a-string\'";',
    ].join('\n');
    assert.deepEqual(specifiersOf(source), [
      '@docflow/contracts',
      '../../workflow/src/b',
      './c',
      './d',
      '@docflow/workflow/e',
    ]);
  });
  it('resolves package names, subpaths and relative paths to units', () => {
    const file = 'services/recognition/src/testing/x.ts';
    assert.deepEqual(targetOf(root, file, '../../../document/src/forms/samples', packages), svc('document'));
    assert.deepEqual(targetOf(root, file, '@docflow/workflow/testing', packages), svc('workflow'));
    assert.deepEqual(targetOf(root, file, './y', packages), svc('recognition'));
    assert.equal(targetOf(root, file, 'hono', packages), undefined);
  });
});

describe('the workspace', () => {
  const edges = workspaceEdges(root);
  it('sees the dependencies it checks (source files and package.json files)', () => {
    const seen = (where: RegExp, to: string) => edges.some((e) => where.test(e.where) && e.to.name === to);
    assert.ok(seen(/^services\/document\/src\/.+\.ts$/, 'workflow-model'));
    assert.ok(seen(/^services\/document\/package\.json$/, 'workflow-model'));
    assert.ok(seen(/^services\/embedded\/src\//, 'document'));
  });
  it('keeps every rule: no service depends on another, no package on a service, contracts on nothing, pure files not on kit', () => {
    assert.deepEqual(edges.map(violation).filter(Boolean), []);
  });
});
