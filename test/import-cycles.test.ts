import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot as ROOT } from "./paths.ts";

// No module of src/ reaches itself through its imports: a cycle makes the order in which modules
// are evaluated depend on which one is loaded first (a constant read before it is set), and ties
// modules together so that neither can be understood, moved or tested alone. Every static import
// and re-export counts, type-only ones too (a type moved to the module both sides need is the usual
// cut); `import()` does not, since it is resolved when called, after every module is loaded.
// docs/decisions/060-the-door-refreshes-the-content-version.md, section 3, says why this is a
// resolver of our own rather than a package.

const SOURCE = /\.(ts|tsx)$/;

function sourceFiles(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, found);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) found.push(full);
  }
  return found;
}

/** package.json's "imports" ("#shared/*": "./src/shared/*"), as prefixes to replace. */
function subpathImports(): [string, string][] {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    imports?: Record<string, string>;
  };
  return Object.entries(manifest.imports ?? {}).map(([from, to]) => [
    from.replace(/\*$/, ""),
    path.join(ROOT, to.replace(/\*$/, "")),
  ]);
}

/** The file a specifier names, or undefined for a package or a file outside the sources (an asset). */
function resolve(specifier: string, importer: string, aliases: [string, string][]): string | undefined {
  let target: string | undefined;
  if (specifier.startsWith(".")) target = path.resolve(path.dirname(importer), specifier);
  else {
    const alias = aliases.find(([prefix]) => specifier.startsWith(prefix));
    if (alias) target = path.join(alias[1], specifier.slice(alias[0].length));
  }
  if (target === undefined) return undefined;
  const candidates = SOURCE.test(target)
    ? [target]
    : [`${target}.ts`, `${target}.tsx`, path.join(target, "index.ts"), path.join(target, "index.tsx")];
  return candidates.find((candidate) => existsSync(candidate));
}

/** The specifiers a module imports or re-exports statically, read by TypeScript's parser (no type-check). */
function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    )
      found.push(statement.moduleSpecifier.text);
  }
  return found;
}

/** The modules under `root` and what each imports of them. */
export function importGraph(root: string): Map<string, string[]> {
  const aliases = subpathImports();
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const targets = staticImports(file)
      .map((specifier) => resolve(specifier, file, aliases))
      .filter((target): target is string => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * Each cycle of the graph, once, as the path from its first module (by name) back to it: the
 * strongly connected components of more than one module (or one importing itself), found by
 * Tarjan's algorithm, and in each the shortest way round from its first module.
 */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  // Iterative, so a deep chain of imports cannot overflow the stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) components.push(component);
      }
    }
  }
  return components.map((component) => shortestCycle(graph, component));
}

/** The shortest way from the component's first module back to itself, within the component. */
function shortestCycle(graph: Map<string, string[]>, component: string[]): string[] {
  const members = new Set(component);
  const first = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [first];
  for (let at = 0; at < queue.length; at++) {
    const node = queue[at]!;
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === first) {
        const way = [first];
        for (let back: string | undefined = node; back !== first && back; back = cameFrom.get(back))
          way.splice(1, 0, back);
        return [...way, first];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [first, first];
}

/**
 * Cycles known and being cut: each must still be there, so that this list is emptied as they go,
 * and no other may appear. None now (the studio's kinds' types are in kind-spec.ts, which kinds.ts
 * and item-queries.ts both import).
 */
const KNOWN_CYCLES: string[] = [];

describe("imports", () => {
  it("finds a cycle, naming its modules in order, and a type-only import counts", () => {
    const graph = new Map([
      ["/a.ts", ["/b.ts"]],
      ["/b.ts", ["/c.ts", "/d.ts"]],
      ["/c.ts", ["/a.ts"]],
      ["/d.ts", []],
      ["/e.ts", ["/e.ts"]],
    ]);
    expect(importCycles(graph)).toEqual(
      expect.arrayContaining([
        ["/a.ts", "/b.ts", "/c.ts", "/a.ts"],
        ["/e.ts", "/e.ts"],
      ]),
    );
    expect(importCycles(graph)).toHaveLength(2);
  });

  it("read from the sources resolve relative and #… imports to the files", () => {
    const graph = importGraph(path.join(ROOT, "src"));
    const doorImports = graph.get(path.join(ROOT, "src/server/admin/door/door.ts")) ?? [];
    expect(doorImports).toContain(path.join(ROOT, "src/shared/admin/routes.ts"));
    expect(doorImports).toContain(path.join(ROOT, "src/server/admin/context.ts"));
  });

  it("of src/ make no cycle", () => {
    const cycles = importCycles(importGraph(path.join(ROOT, "src"))).map((cycle) =>
      cycle.map((file) => path.relative(ROOT, file)).join(" → "),
    );
    const unknown = cycles.filter((cycle) => !KNOWN_CYCLES.includes(cycle));
    expect(unknown, `import cycles:\n${unknown.join("\n")}`).toEqual([]);
    const gone = KNOWN_CYCLES.filter((cycle) => !cycles.includes(cycle));
    expect(gone, `cycles cut: take them out of KNOWN_CYCLES:\n${gone.join("\n")}`).toEqual([]);
  });
});
