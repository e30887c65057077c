// The house rules on how src/ is built, as pure functions over file texts so that the rules
// themselves can be tested on synthetic trees. The order of the layers is in layers.json.
import * as path from 'node:path';
import ts from 'typescript';
import { describeCycle, findCycles, parseFiles, type ImportRef, type ParsedFile, type SourceFile } from './importGraph';
import { appImportsFromBelow, isUnder, LAYERS, layerListProblems, unplacedFiles, upwardImports, webviewEscapes } from './layerOrder';

export interface LayeringRule {
  name: string;
  check(files: ParsedFile[]): string[];
}

const MAX_LINES = 400;
const FILE_NAME = /^[a-z][a-zA-Z0-9]*(\.[a-z]+)?\.ts$/;

/** Packages with native binaries or worker scripts, confined to the platform layer. */
const DESKTOP_NATIVE_PACKAGES = ['@nut-tree-fork/*', 'tesseract.js', '@tesseract.js-data/*', 'sharp'];
const LLM_SDK_PACKAGES = ['@anthropic-ai/sdk', 'openai'];

const ORDER = LAYERS.map((layer) => layer.name).join(' → ');

export const LAYERING_RULES: readonly LayeringRule[] = [
  {
    name: 'the ordered list of layers (layers.json) is well formed',
    check: () => layerListProblems(),
  },
  {
    name: 'every file of src/ is in a layer (or the webview)',
    check: (files) => unplacedFiles(files),
  },
  {
    name: `imports only go down the layers: ${ORDER}`,
    check: (files) => upwardImports(files),
  },
  {
    name: 'only the fronts import src/app',
    check: (files) => appImportsFromBelow(files),
  },
  {
    name: 'no import cycles (files, type-only imports included)',
    check: (files) =>
      findCycles(files).map(({ steps, groupSize }) => {
        const group = groupSize > steps.length ? ` (${groupSize} files import each other in a circle here)` : '';
        return `import cycle ${describeCycle(steps)}${group}: move what they share into a file below both`;
      }),
  },
  {
    name: 'the webview imports only src/shared/** and its packages; src/shared only itself',
    check: (files) => webviewEscapes(files),
  },
  {
    name: 'vscode is imported only by src/vscode/** and src/extension.ts',
    check: (files) =>
      importViolations(
        files,
        (file) => !isUnder(file.path, 'src/vscode') && file.path !== 'src/extension.ts',
        (ref) => ref.packageName === 'vscode',
        'only src/vscode/** and src/extension.ts may import vscode',
      ),
  },
  {
    name: 'native desktop packages only in src/platform/**',
    check: (files) =>
      importViolations(
        files,
        (file) => !isUnder(file.path, 'src/platform'),
        (ref) => matchesPackage(ref.packageName, DESKTOP_NATIVE_PACKAGES),
        'native desktop packages belong in src/platform/**',
      ),
  },
  {
    name: 'LLM SDKs only in src/model/providers/**',
    check: (files) =>
      importViolations(
        files,
        (file) => !isUnder(file.path, 'src/model/providers'),
        (ref) => matchesPackage(ref.packageName, LLM_SDK_PACKAGES),
        'LLM SDKs belong in src/model/providers/**',
      ),
  },
  {
    name: 'no default exports',
    check: (files) =>
      files.flatMap((file) =>
        defaultExportLines(file).map((line) => `${file.path}:${line} has a default export; use named exports`),
      ),
  },
  {
    name: 'no barrel files',
    check: (files) =>
      files
        .filter((file) => path.posix.basename(file.path) === 'index.ts' && isBarrel(file))
        .map((file) => `${file.path} is a barrel file (only re-exports); import from the modules themselves`),
  },
  {
    name: 'file names are camelCase',
    check: (files) =>
      files
        .filter((file) => !FILE_NAME.test(path.posix.basename(file.path)))
        .map((file) => `${file.path} is not a camelCase file name (${FILE_NAME})`),
  },
  {
    name: `no file over ${MAX_LINES} lines`,
    check: (files) =>
      files
        .filter((file) => lineCount(file.text) > MAX_LINES)
        .map((file) => `${file.path} has ${lineCount(file.text)} lines (max ${MAX_LINES}); split it`),
  },
];

/** Every violation of every rule; empty when the tree follows the house rules. */
export function checkLayering(files: SourceFile[]): string[] {
  const parsed = parseFiles(files);
  return LAYERING_RULES.flatMap((rule) => rule.check(parsed));
}

function importViolations(
  files: ParsedFile[],
  appliesTo: (file: ParsedFile) => boolean,
  isForbidden: (ref: ImportRef) => boolean,
  reason: string,
): string[] {
  return files
    .filter(appliesTo)
    .flatMap((file) =>
      file.imports.filter(isForbidden).map((ref) => `${file.path}:${ref.line} imports '${ref.specifier}': ${reason}`),
    );
}

function matchesPackage(name: string | undefined, patterns: readonly string[]): boolean {
  if (name === undefined) return false;
  return patterns.some((pattern) => (pattern.endsWith('/*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern));
}

function lineCount(text: string): number {
  if (text.length === 0) return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

function parse(file: SourceFile): ts.SourceFile {
  return ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function defaultExportLines(file: SourceFile): number[] {
  const source = parse(file);
  const lines: number[] = [];
  const lineAt = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  for (const statement of source.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    const hasDefaultModifier = modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword);
    // `export default x` and `export = x` are both ExportAssignments.
    if (ts.isExportAssignment(statement) || hasDefaultModifier) {
      lines.push(lineAt(statement));
    } else if (ts.isExportDeclaration(statement) && statement.exportClause) {
      const clause = statement.exportClause;
      const exportsDefault = ts.isNamedExports(clause)
        ? clause.elements.some((element) => element.name.text === 'default')
        : clause.name.text === 'default';
      if (exportsDefault) lines.push(lineAt(statement));
    }
  }
  return lines;
}

/** Only imports and exports, and at least one export that forwards another module. */
function isBarrel(file: SourceFile): boolean {
  const statements = parse(file).statements;
  const onlyForwarding = statements.every(
    (statement) =>
      ts.isExportDeclaration(statement) || ts.isImportDeclaration(statement) || ts.isImportEqualsDeclaration(statement),
  );
  return statements.length > 0 && onlyForwarding && statements.some(ts.isExportDeclaration);
}
