// The order of src/ (layers.json) and the rules that follow from it: imports only go down,
// every file has a place, app/ is for the fronts, the webview stays in the browser.
import { layers as layerList, shared as sharedArea, webview as webviewArea } from './layers.json';
import type { ImportRef, ParsedFile } from './importGraph';

export interface Layer {
  name: string;
  /** Folders or files, relative to the repository root. */
  paths: readonly string[];
  /** One line for a newcomer (README, npm run deps). */
  what: string;
  /** Why the parts are cut where they are. */
  note?: string;
  /** Bottom to top inside the layer; `*` is whatever no other part names. */
  parts?: readonly (readonly string[])[];
  /** A way in for a person (CLI, VS Code, MCP server, demo): the only importers of src/app. */
  front?: boolean;
}

export interface Webview {
  paths: readonly string[];
  what: string;
  /** Project folders it may import besides itself. */
  mayImport: readonly string[];
  packages: readonly string[];
}

/** The protocols the webview imports; they stay free of the rest of src/. */
export interface Shared {
  paths: readonly string[];
  what: string;
  packages: readonly string[];
}

export const REST = '*';

export const LAYERS: readonly Layer[] = layerList;
export const WEBVIEW: Webview = webviewArea;
export const SHARED: Shared = sharedArea;

/** Where a file sits: its layer (index in LAYERS) and its part within the layer. */
export interface Place {
  layer: number;
  part: number;
}

export function isUnder(filePath: string, dirOrFile: string): boolean {
  return filePath === dirOrFile || filePath.startsWith(`${dirOrFile}/`);
}

/** The longest matching path wins, so `src/mcp/client` is told apart from `src/mcp/server`. */
export function placeOf(filePath: string, layers: readonly Layer[] = LAYERS): Place | undefined {
  let best: { place: Place; length: number } | undefined;
  layers.forEach((layer, index) => {
    for (const dir of layer.paths) {
      if (isUnder(filePath, dir) && (best === undefined || dir.length > best.length)) {
        best = { place: { layer: index, part: partOf(filePath, layer) }, length: dir.length };
      }
    }
  });
  return best?.place;
}

function partOf(filePath: string, layer: Layer): number {
  const parts = layer.parts ?? [];
  let best: { part: number; length: number } | undefined;
  parts.forEach((part, index) => {
    for (const dir of part) {
      if (dir !== REST && isUnder(filePath, dir) && (best === undefined || dir.length > best.length)) best = { part: index, length: dir.length };
    }
  });
  if (best !== undefined) return best.part;
  const rest = parts.findIndex((part) => part.includes(REST));
  return rest === -1 ? 0 : rest;
}

/** Mistakes in layers.json itself: a path in two layers, a part outside its layer, parts without `*`. */
export function layerListProblems(layers: readonly Layer[] = LAYERS): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const layer of layers) {
    for (const dir of layer.paths) {
      const other = seen.get(dir);
      if (other !== undefined) problems.push(`${dir} is in two layers: ${other} and ${layer.name}`);
      seen.set(dir, layer.name);
    }
    if (layer.parts === undefined) continue;
    const rests = layer.parts.filter((part) => part.includes(REST)).length;
    if (rests !== 1) problems.push(`layer ${layer.name}: its parts need exactly one "${REST}" (the rest of the layer), found ${rests}`);
    for (const dir of layer.parts.flat()) {
      if (dir !== REST && !layer.paths.some((own) => isUnder(dir, own))) problems.push(`layer ${layer.name}: part ${dir} is not inside the layer`);
    }
  }
  const firstFront = layers.findIndex((layer) => layer.front === true);
  if (firstFront !== -1 && layers.slice(firstFront).some((layer) => layer.front !== true)) {
    problems.push('the fronts must be the top layers (nothing but fronts above the first front)');
  }
  return problems;
}

/** `file:line imports 'spec' (target): why`. */
function violation(file: ParsedFile, ref: ImportRef, why: string): string {
  const target = ref.target !== undefined && ref.target !== ref.specifier ? ` (${ref.target})` : '';
  return `${file.path}:${ref.line} imports '${ref.specifier}'${target}: ${why}`;
}

function inWebview(filePath: string): boolean {
  return WEBVIEW.paths.some((dir) => isUnder(filePath, dir));
}

/** Every file of src/ is in a layer or the webview: a new top-level folder must be placed. */
export function unplacedFiles(files: readonly ParsedFile[], layers: readonly Layer[] = LAYERS): string[] {
  return files
    .filter((file) => isUnder(file.path, 'src') && placeOf(file.path, layers) === undefined && !inWebview(file.path))
    .map((file) => {
      const folder = file.path.split('/').slice(0, 2).join('/');
      return `${file.path} is in no layer: add ${folder} to the ordered list in test/architecture/layers.json`;
    });
}

/** Imports that go up the order: to a higher layer, or to a higher part of the same layer. */
export function upwardImports(files: readonly ParsedFile[], layers: readonly Layer[] = LAYERS): string[] {
  return files.flatMap((file) => {
    const from = placeOf(file.path, layers);
    if (from === undefined) return [];
    const fromLayer = layers[from.layer];
    return file.imports.flatMap((ref) => {
      if (ref.target === undefined) return [];
      if (inWebview(ref.target)) return [violation(file, ref, 'nothing outside src/webview imports the webview (it is a browser bundle of its own)')];
      const to = placeOf(ref.target, layers);
      if (to === undefined || fromLayer === undefined) return [];
      const toLayer = layers[to.layer];
      if (to.layer > from.layer) {
        return [violation(file, ref, `layer ${fromLayer.name} sits below layer ${toLayer?.name} (test/architecture/layers.json) and may not import it`)];
      }
      if (to.layer === from.layer && to.part > from.part) {
        const names = (index: number) => (fromLayer.parts?.[index] ?? []).join(', ');
        return [violation(file, ref, `in layer ${fromLayer.name}, [${names(from.part)}] sits below [${names(to.part)}] and may not import it`)];
      }
      return [];
    });
  });
}

/** src/app assembles the stack for the fronts; below them, code gets what it needs passed in. */
export function appImportsFromBelow(files: readonly ParsedFile[], layers: readonly Layer[] = LAYERS): string[] {
  const app = layers.find((layer) => layer.name === 'app');
  if (app === undefined) return [];
  return files
    .filter((file) => {
      const place = placeOf(file.path, layers);
      return !(place !== undefined && layers[place.layer]?.front === true) && !app.paths.some((dir) => isUnder(file.path, dir));
    })
    .flatMap((file) =>
      file.imports
        .filter((ref) => ref.target !== undefined && app.paths.some((dir) => isUnder(ref.target ?? '', dir)))
        .map((ref) => violation(file, ref, 'only the fronts import src/app (the assembly); pass what the code needs into its constructor instead')),
    );
}

/**
 * The webview imports only itself, src/shared and its packages (it runs in a browser), and
 * src/shared imports only itself and its packages, so nothing else rides into the webview.
 */
export function webviewEscapes(files: readonly ParsedFile[]): string[] {
  const mayImport = [...WEBVIEW.paths, ...WEBVIEW.mayImport];
  return files.flatMap((file) => {
    const area = inWebview(file.path) ? { dirs: mayImport, packages: WEBVIEW.packages, who: 'the webview' } : undefined;
    const shared = SHARED.paths.some((dir) => isUnder(file.path, dir)) ? { dirs: SHARED.paths, packages: SHARED.packages, who: SHARED.paths.join(', ') } : undefined;
    const rule = area ?? shared;
    if (rule === undefined) return [];
    const allowed = `${rule.dirs.join(', ')} and the packages ${rule.packages.join(', ')}`;
    return file.imports
      .filter((ref) => (ref.target !== undefined ? !rule.dirs.some((dir) => isUnder(ref.target ?? '', dir)) : !rule.packages.includes(ref.packageName ?? '')))
      .map((ref) => violation(file, ref, `${rule.who} may import only ${allowed}`));
  });
}
