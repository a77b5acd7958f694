import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layout ARCHITECTURE.md describes, checked on the production code (tests
 * and their `testing/` helpers may reach across): imports go one way, no
 * import circle, SQL only in `store`, the file formats through their one door.
 */

const ROOT = resolve(import.meta.dirname, '..');
const TREES = ['src-shared', 'src-main'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const files = TREES.flatMap((tree) => sourceFiles(join(ROOT, tree)));
const rel = (path: string): string => relative(ROOT, path).replaceAll('\\', '/');
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** Each file's relative imports (type-only ones too: a circle of types is still a circle). */
const imports = new Map<string, string[]>(
  files.map((file) => {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) =>
      rel(resolve(dirname(file), (m[1] ?? m[2]) as string)),
    );
    return [rel(file), targets];
  }),
);

/** The import circles: strongly connected components of more than one file (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** Where a file sits: its tree and, under src-main, its top folder. */
function layerOf(path: string): string {
  const [tree, folder] = path.split('/');
  return tree === 'src-main' ? `src-main/${folder}` : (tree as string);
}

/** What each layer may import (itself always). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  'src-shared': [],
  'src-main/engine': ['src-shared'],
  'src-main/files': ['src-shared', 'src-main/engine'],
  'src-main/store': ['src-shared', 'src-main/engine'],
  'src-main/service': ['src-shared', 'src-main/engine', 'src-main/files', 'src-main/store'],
};

describe('the architecture', () => {
  it('has no import circle', () => {
    expect(circles(imports)).toEqual([]);
  });

  it('imports one way: shared ← engine ← files, store ← service ← http, electron, cli', () => {
    const backwards: string[] = [];
    for (const [file, targets] of imports) {
      const allowed = MAY_IMPORT[layerOf(file)];
      if (!allowed) continue; // http, electron, cli: the edges may import any layer below
      for (const target of targets) {
        const layer = layerOf(target);
        if (layer !== layerOf(file) && !allowed.includes(layer))
          backwards.push(`${file} → ${target}`);
      }
    }
    expect(backwards).toEqual([]);
  });

  it('holds SQL only in store', () => {
    const SQL =
      /\.(prepare|pragma)\(|\b(SELECT\s+[\w*(]|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|TRIGGER|VIRTUAL))/;
    const outside = files
      .map(rel)
      .filter((file) => !file.startsWith('src-main/store/'))
      .filter((file) => SQL.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(outside).toEqual([]);
  });

  it('reaches the file formats through their one door', () => {
    const bypass: string[] = [];
    for (const [file, targets] of imports) {
      if (file.startsWith('src-main/files/')) continue;
      for (const target of targets) {
        if (target.startsWith('src-main/files/') && target !== 'src-main/files/index.ts') {
          bypass.push(`${file} → ${target}`);
        }
      }
    }
    expect(bypass).toEqual([]);
  });
});
