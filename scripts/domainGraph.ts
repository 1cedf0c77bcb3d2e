// The import graph of the server and the worker collapsed to their domains (top-level folders of
// server/src and worker/src), and the cycles between domains: `npm run lint` fails on any
// (ARCHITECTURE.md: the import graph reads top-down). Files at a root (app.ts, main.ts) compose
// the domains and are left out; so are tests.
import path from 'node:path';

/** file → the files it imports (paths relative to one directory), as madge reports them. */
export type FileGraph = Record<string, string[]>;

const domainOf = (file: string): string | null => {
  const parts = file.split('/');
  return parts.length > 1 && !parts[0]!.startsWith('.') ? parts[0]! : null;
};

/** The domain graph: domain → the other domains it imports, with one file import as the reason for each edge. */
export function domainEdges(graph: FileGraph): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const [file, imports] of Object.entries(graph)) {
    const from = domainOf(file);
    if (!from || /\.test\.tsx?$/.test(file)) continue;
    for (const target of imports) {
      const to = domainOf(target);
      if (!to || to === from || /\.test\.tsx?$/.test(target)) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${file} → ${target}`);
      edges.set(from, out);
    }
  }
  return edges;
}

/** The groups of domains that import each other, directly or around a loop (strongly connected, two or more). */
export function domainCycles(edges: Map<string, Map<string, string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

async function main(): Promise<void> {
  const { default: madge } = await import('madge');
  const root = path.resolve(import.meta.dirname, '..');
  let found = 0;
  for (const base of ['server/src', 'worker/src']) {
    const result = await madge(path.join(root, base), { fileExtensions: ['ts'], tsConfig: path.join(root, 'tsconfig.json') });
    const edges = domainEdges(result.obj());
    for (const group of domainCycles(edges)) {
      found++;
      console.error(`✗ ${base}: the domains ${group.join(', ')} import each other:`);
      for (const from of group) for (const [to, why] of edges.get(from) ?? []) if (group.includes(to)) console.error(`    ${why}`);
    }
  }
  if (found > 0) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await main();
