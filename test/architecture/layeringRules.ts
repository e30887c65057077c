// The house rules on how src/ is layered, as a pure function over file texts so the rules
// themselves can be tested on synthetic trees.
import * as path from 'node:path';
import ts from 'typescript';

export interface SourceFile {
  /** Relative to the repository root, with forward slashes, e.g. `src/tools/click.ts`. */
  path: string;
  text: string;
}

export interface LayeringRule {
  name: string;
  check(files: ParsedFile[]): string[];
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

/** Packages the webview bundle may use; it runs in a browser, so nothing else from npm or Node. */
export const WEBVIEW_ALLOWED_PACKAGES: readonly string[] = [
  '@vscode-elements/elements',
  '@vscode/codicons',
  'markdown-it',
  'dompurify',
];

/** Project files outside src/webview/ the webview may import: the protocols of its views. */
export const WEBVIEW_ALLOWED_FILES: readonly string[] = ['src/shared/protocol.ts', 'src/shared/brainProtocol.ts', 'src/shared/pictureProtocol.ts'];

/** Host-independent code shared by the CLI and the extension. */
export const CORE_DIRS: readonly string[] = [
  'src/common',
  'src/desktop',
  'src/platform',
  'src/model',
  'src/tools',
  'src/runtime',
  'src/agent',
  'src/safety',
  'src/navigation',
  'src/mcp/client',
  'src/app',
];

/** The hosts and the UI, which the core must not depend on. */
const HOST_TARGETS: readonly string[] = ['src/vscode', 'src/cli', 'src/extension.ts', 'src/webview'];

const MAX_LINES = 400;
const FILE_NAME = /^[a-z][a-zA-Z0-9]*(\.[a-z]+)?\.ts$/;

/** Packages with native binaries or worker scripts, confined to the desktop adapters. */
const DESKTOP_NATIVE_PACKAGES = ['@nut-tree-fork/*', 'tesseract.js', '@tesseract.js-data/*', 'sharp'];
const LLM_SDK_PACKAGES = ['@anthropic-ai/sdk', 'openai'];

export const LAYERING_RULES: readonly LayeringRule[] = [
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
    name: 'the core does not import the hosts or the webview',
    check: (files) =>
      importViolations(
        files,
        (file) => CORE_DIRS.some((dir) => isUnder(file.path, dir)),
        (ref) => ref.target !== undefined && HOST_TARGETS.some((host) => isUnder(ref.target ?? '', host)),
        `the core (${CORE_DIRS.join(', ')}) must not depend on ${HOST_TARGETS.join(', ')}`,
      ),
  },
  {
    name: 'the webview imports only the shared protocols and allowed packages',
    check: (files) =>
      importViolations(
        files,
        (file) => isUnder(file.path, 'src/webview'),
        (ref) =>
          ref.target !== undefined
            ? !isUnder(ref.target, 'src/webview') && !WEBVIEW_ALLOWED_FILES.includes(ref.target)
            : !WEBVIEW_ALLOWED_PACKAGES.includes(ref.packageName ?? ''),
        `the webview may import only src/webview/**, ${WEBVIEW_ALLOWED_FILES.join(', ')} and ${WEBVIEW_ALLOWED_PACKAGES.join(', ')}`,
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

export function parseFiles(files: SourceFile[]): ParsedFile[] {
  const known = new Set(files.map((file) => file.path));
  return files.map((file) => ({ ...file, imports: importsOf(file, known) }));
}

/** import, export-from, import = require, require(), import() and `/// <reference types>`. */
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

function matchesPackage(name: string | undefined, patterns: readonly string[]): boolean {
  if (name === undefined) return false;
  return patterns.some((pattern) => (pattern.endsWith('/*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern));
}

function isUnder(filePath: string, dirOrFile: string): boolean {
  return filePath === dirOrFile || filePath.startsWith(`${dirOrFile}/`);
}

function lineOf(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
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
