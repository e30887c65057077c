// The imports of src/ as a graph over file texts (no file system), so that the architecture
// rules can be tested on synthetic trees.
import * as path from 'node:path';
import ts from 'typescript';

export interface SourceFile {
  /** Relative to the repository root, with forward slashes, e.g. `src/tools/click.ts`. */
  path: string;
  text: string;
}

export interface ImportRef {
  specifier: string;
  line: number;
  /** The project file it points at (best guess when not among the files), for relative ones. */
  target?: string;
  /** The package name (`@scope/name` or `name`), for bare specifiers. */
  packageName?: string;
}

export interface ParsedFile extends SourceFile {
  imports: ImportRef[];
}

export function parseFiles(files: SourceFile[]): ParsedFile[] {
  const known = new Set(files.map((file) => file.path));
  return files.map((file) => ({ ...file, imports: importsOf(file, known) }));
}

/**
 * import (type-only ones too: they tie the files as much for a reader), export-from,
 * import = require, require(), import() and `/// <reference types>`.
 */
export function importsOf(file: SourceFile, known: ReadonlySet<string>): ImportRef[] {
  const info = ts.preProcessFile(file.text, true, true);
  const refs = [...info.importedFiles, ...info.typeReferenceDirectives];
  return refs.map((ref) => {
    const specifier = ref.fileName;
    const line = lineOf(file.text, ref.pos);
    if (specifier.startsWith('.') || specifier.startsWith('/')) {
      return { specifier, line, target: resolveRelative(file.path, specifier, known) };
    }
    return { specifier, line, packageName: packageNameOf(specifier) };
  });
}

/** One import of a cycle: `from` imports `to` at `line`. */
export interface CycleStep {
  from: string;
  to: string;
  line: number;
}

/**
 * One shortest cycle per group of files that import each other in a circle (a strongly
 * connected component), with the size of that group: breaking the printed cycle may leave
 * another in the same group, which the next run prints.
 */
export function findCycles(files: ParsedFile[]): { steps: CycleStep[]; groupSize: number }[] {
  const edges = new Map<string, Map<string, number>>();
  for (const file of files) {
    const out = new Map<string, number>();
    for (const ref of file.imports) {
      if (ref.target !== undefined && !out.has(ref.target)) out.set(ref.target, ref.line);
    }
    edges.set(file.path, out);
  }
  return stronglyConnected(edges)
    .filter((group) => group.length > 1 || edges.get(group[0] ?? '')?.has(group[0] ?? ''))
    .map((group) => {
      const start = [...group].sort()[0] ?? '';
      return { steps: shortestCycle(start, new Set(group), edges), groupSize: group.length };
    })
    .sort((a, b) => (a.steps[0]?.from ?? '').localeCompare(b.steps[0]?.from ?? ''));
}

/** `a.ts:3 → b.ts:7 → a.ts`: each file with the line of its import of the next. */
export function describeCycle(steps: readonly CycleStep[]): string {
  const hops = steps.map((step) => `${step.from}:${step.line}`);
  return [...hops, steps[0]?.from ?? ''].join(' → ');
}

/** Tarjan's algorithm, iterative so that a deep import chain cannot overflow the stack. */
function stronglyConnected(edges: ReadonlyMap<string, ReadonlyMap<string, number>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let counter = 0;
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; next: Iterator<string> }[] = [];
    const enter = (node: string) => {
      index.set(node, counter);
      low.set(node, counter++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: (edges.get(node)?.keys() ?? [].values())[Symbol.iterator]() });
    };
    enter(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame === undefined) break;
      const step = frame.next.next();
      if (!step.done) {
        const to = step.value;
        if (!edges.has(to)) continue; // outside the tree (a guessed path)
        if (!index.has(to)) enter(to);
        else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(to) ?? 0));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop();
          if (member === undefined) break;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        groups.push(group);
      }
    }
  }
  return groups;
}

/** Breadth-first from start back to start, inside its group; the group guarantees a way back. */
function shortestCycle(start: string, group: ReadonlySet<string>, edges: ReadonlyMap<string, ReadonlyMap<string, number>>): CycleStep[] {
  const cameFrom = new Map<string, CycleStep>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head] ?? '';
    for (const [to, line] of [...(edges.get(node) ?? [])].sort(([a], [b]) => a.localeCompare(b))) {
      if (!group.has(to)) continue;
      if (to === start) {
        const steps = [{ from: node, to, line }];
        for (let back = cameFrom.get(node); back !== undefined; back = cameFrom.get(back.from)) steps.unshift(back);
        return steps;
      }
      if (cameFrom.has(to)) continue;
      cameFrom.set(to, { from: node, to, line });
      queue.push(to);
    }
  }
  return [];
}

function resolveRelative(from: string, specifier: string, known: ReadonlySet<string>): string {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  // Bundler resolution: extensionless, `.js` written for `.ts`, or a directory's index.ts.
  const candidates = [base, `${base}.ts`, base.replace(/\.js$/, '.ts'), `${base}/index.ts`];
  const found = candidates.find((candidate) => known.has(candidate));
  if (found !== undefined) return found;
  // Not among the files (e.g. a synthetic tree): guess the .ts file it would be.
  if (base.endsWith('.js')) return base.replace(/\.js$/, '.ts');
  return path.posix.extname(base) ? base : `${base}.ts`;
}

function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

function lineOf(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
