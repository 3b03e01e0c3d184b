/**
 * The workspace's import graph and the rules it must keep (DESIGN.md, "Shape"): services never import
 * one another (`services/embedded`, the composition root, composes them all), packages never import a
 * service, `contracts` imports no other package, `workflow-model` imports `contracts` only and
 * `document-model` those two only (the offline verifier folds with it, outside any service); pure
 * files (a service's `businessLogic.ts` and `access.ts`) do not import `kit`, its HTTP layer: they throw
 * the domain's rejections (`contracts`), which kit maps to problem+json at the edge.
 * Edges come from every import specifier of every source file (static, dynamic and `export … from`),
 * and from each workspace package.json's dependencies.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** A workspace unit: `services/<name>` or `packages/<name>`. */
export interface Unit {
  kind: 'services' | 'packages';
  name: string;
}

/** One dependency of a unit: where it is declared, what it names, and the unit it reaches. */
export interface Edge {
  from: Unit;
  to: Unit;
  /** `services/document/src/access.ts` or `services/document/package.json`. */
  where: string;
  specifier: string;
}

/** The one unit allowed to import services: it builds each service's app and mounts them. */
const COMPOSITION_ROOT = 'embedded';
/** Packages that may depend on the listed packages only. */
const ONLY_ON: Record<string, readonly string[]> = {
  contracts: [],
  'workflow-model': ['contracts'],
  'document-model': ['contracts', 'workflow-model'],
};
/** Files of decisions and access rules: pure, so they name no HTTP status nor import the package that does. */
const PURE_FILE = /(^|\/)(businessLogic|access)\.ts$/;
const HTTP_LAYER = 'kit';

const label = (u: Unit) => `${u.kind}/${u.name}`;
const same = (a: Unit, b: Unit) => a.kind === b.kind && a.name === b.name;

/** Why an edge breaks a rule, or undefined when it keeps them all. */
export function violation(edge: Edge): string | undefined {
  const { from, to } = edge;
  if (same(from, to)) return undefined;
  const says = `${edge.where} depends on ${label(to)} (${edge.specifier})`;
  if (from.kind === 'services' && to.kind === 'services' && from.name !== COMPOSITION_ROOT)
    return `a service depends on another service: ${says}`;
  if (from.kind === 'packages' && to.kind === 'services') return `a package depends on a service: ${says}`;
  if (PURE_FILE.test(edge.where) && to.kind === 'packages' && to.name === HTTP_LAYER)
    return `pure code depends on the HTTP layer: ${says}`;
  const allowed = from.kind === 'packages' ? ONLY_ON[from.name] : undefined;
  if (allowed && !(to.kind === 'packages' && allowed.includes(to.name)))
    return `${label(from)} may depend on ${allowed.join(', ') || 'no other package'} only: ${says}`;
  return undefined;
}

/** The unit a repository-relative path lies in. */
export function unitOf(path: string): Unit | undefined {
  const [kind, name] = path.split(/[\\/]/);
  return (kind === 'services' || kind === 'packages') && name ? { kind, name } : undefined;
}

/** The unit an import specifier reaches from `file`: a workspace package by name, or a relative path. */
export function targetOf(
  root: string,
  file: string,
  specifier: string,
  packages: ReadonlyMap<string, Unit>,
): Unit | undefined {
  if (specifier.startsWith('.')) return unitOf(relative(root, resolve(dirname(join(root, file)), specifier)));
  const name = specifier.startsWith('@')
    ? specifier.split('/').slice(0, 2).join('/')
    : specifier.split('/')[0]!;
  return packages.get(name);
}

/** Every import specifier of a TypeScript source, comments and strings aside. */
export function specifiersOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|mts|tsx|js|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** Every edge of the workspace under `root`, from the sources under each unit's `src` and its package.json. */
export function workspaceEdges(root: string): Edge[] {
  const units: Array<{ unit: Unit; dir: string; manifest: Manifest }> = [];
  for (const kind of ['services', 'packages'] as const)
    for (const name of readdirSync(join(root, kind))) {
      const dir = join(root, kind, name);
      const manifest = join(dir, 'package.json');
      if (statSync(dir).isDirectory() && statSync(manifest, { throwIfNoEntry: false }))
        units.push({ unit: { kind, name }, dir, manifest: JSON.parse(readFileSync(manifest, 'utf8')) });
    }
  const packages = new Map(units.map((u) => [u.manifest.name, u.unit]));
  const edges: Edge[] = [];
  for (const { unit, dir, manifest } of units) {
    const where = relative(root, join(dir, 'package.json')).split(sep).join('/');
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
      const to = packages.get(dep);
      if (to) edges.push({ from: unit, to, where, specifier: dep });
    }
    for (const path of sourceFiles(join(dir, 'src'))) {
      const file = relative(root, path).split(sep).join('/');
      for (const specifier of specifiersOf(readFileSync(path, 'utf8'))) {
        const to = targetOf(root, file, specifier, packages);
        if (to) edges.push({ from: unit, to, where: file, specifier });
      }
    }
  }
  return edges;
}
