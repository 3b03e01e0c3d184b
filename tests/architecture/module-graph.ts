/**
 * The import graph between the files of one service or package, and its cycles: a file that imports,
 * through any chain, a file that imports it back. Only relative imports count (another unit is reached
 * by package name, and the workspace rules in import-graph.ts govern those edges); type-only imports
 * count too, as a cycle of types still ties the two files' changes together.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { specifiersOf } from './import-graph';

/** Files by repository-relative path, each with the files of its own unit it imports. */
export type ModuleGraph = ReadonlyMap<string, readonly string[]>;

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '/index.ts', '/index.tsx'];

/** The source file a relative specifier names (`./a`, `./a.js` for `a.ts`, `./dir` for its index). */
export function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), base.replace(/\.m?js$/, '.ts')];
  return candidates.find((p) => SOURCE.test(p) && existsSync(p) && statSync(p).isFile());
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (SOURCE.test(name)) out.push(path);
  }
  return out;
}

/** The graph of the files under `unitDir` (paths relative to `root`). */
export function unitGraph(root: string, unitDir: string): ModuleGraph {
  const rel = (p: string) => relative(root, p).split(sep).join('/');
  const graph = new Map<string, string[]>();
  for (const path of sourceFiles(unitDir)) {
    const targets = specifiersOf(readFileSync(path, 'utf8'))
      .filter((s) => s.startsWith('.'))
      .map((s) => resolveRelative(path, s))
      .filter((p): p is string => p?.startsWith(unitDir + sep) === true);
    graph.set(rel(path), [...new Set(targets.map(rel))]);
  }
  return graph;
}

/**
 * Each cycle of `graph` as the sorted files of one strongly connected component of two or more
 * files (or a file importing itself), by Tarjan's algorithm.
 */
export function cyclesOf(graph: ModuleGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** Every unit of the workspace: `services/<name>` and `packages/<name>`, by their directories. */
export function unitDirs(root: string): string[] {
  return ['services', 'packages'].flatMap((kind) =>
    readdirSync(join(root, kind))
      .map((name) => join(root, kind, name))
      .filter((dir) => existsSync(join(dir, 'package.json'))),
  );
}
