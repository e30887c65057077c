// Finds the programs the code starts: every call of child_process's spawn, spawnSync,
// execFile, execFileSync, exec, execSync and fork (also through promisify and through local
// wrappers that pass the command on), plus `executablePath:` handed to a browser launcher.
// A pure function over file texts, so it is tested on synthetic files too.
import * as path from 'node:path';
import ts from 'typescript';
import { SHELLS, shellCommands, stringParts } from './shellScripts';

export interface ScannedFile {
  /** Relative to the repository root, forward slashes. */
  path: string;
  text: string;
}

/** One program started somewhere: where, and the name it is started by (a path's base name). */
export interface SpawnUse {
  command: string;
  file: string;
  line: number;
  /** How it was found, e.g. `spawn` or `sh -c` or `run() -> execFile`. */
  via: string;
}

/** A command the scanner could not pin to a fixed name: file, line and the expression. */
export interface UnresolvedSpawn {
  file: string;
  line: number;
  expression: string;
  why: string;
}

export interface SpawnScan {
  uses: SpawnUse[];
  unresolved: UnresolvedSpawn[];
}

/** `process.execPath`, `fork()`: the Node running us. */
export const NODE_ITSELF = 'node';

const CHILD_PROCESS_MODULES = new Set(['child_process', 'node:child_process']);
/** First argument is the program. */
const FILE_SPAWNERS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync']);
/** First argument is a shell command line. */
const SHELL_SPAWNERS = new Set(['exec', 'execSync']);
const MAX_DEPTH = 12;

interface Parsed {
  file: ScannedFile;
  source: ts.SourceFile;
  /** Local name -> child_process function name (e.g. `run` -> `execFile` after promisify). */
  spawners: Map<string, string>;
  /** Local names bound to the whole module (`import * as cp`). */
  namespaces: Set<string>;
  /** Declarations by name (variables, parameters, destructured names, imports). */
  declarations: Map<string, ts.Node[]>;
  calls: ts.CallExpression[];
}

/** A command, located where its name is written (the literal), or why it could not be named. */
type Value = { command: string; via: string; file: string; line: number } | { unresolved: UnresolvedSpawn };

export function scanSpawns(files: readonly ScannedFile[]): SpawnScan {
  const resolver = new Resolver(files);
  const uses = new Map<string, SpawnUse>();
  const unresolved = new Map<string, UnresolvedSpawn>();
  // Parsing is the slow part: only files that can start a program are parsed up front; the
  // ones they import from or that call their wrappers are parsed when followed.
  for (const file of files.filter((f) => /child_process|executablePath/.test(f.text))) {
    const unit = resolver.unit(file.path)!;
    visit(unit.source, (node) => {
      for (const value of resolver.commandsAt(unit, node)) {
        if ('unresolved' in value) unresolved.set(JSON.stringify(value.unresolved), value.unresolved);
        else uses.set(`${value.command} ${value.file}:${value.line}`, { command: value.command, via: value.via, file: value.file, line: value.line });
      }
    });
  }
  return { uses: [...uses.values()], unresolved: [...unresolved.values()] };
}

function parse(file: ScannedFile): Parsed {
  const kind = /\.[cm]?js$/.test(file.path) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, kind);
  const spawners = new Map<string, string>();
  const namespaces = new Set<string>();
  const declarations = new Map<string, ts.Node[]>();
  const calls: ts.CallExpression[] = [];
  visit(source, (node) => {
    if (ts.isCallExpression(node)) calls.push(node);
    const declared =
      (ts.isVariableDeclaration(node) || ts.isParameter(node) || ts.isBindingElement(node)) && ts.isIdentifier(node.name)
        ? node.name.text
        : ts.isImportSpecifier(node)
          ? node.name.text
          : undefined;
    if (declared !== undefined) declarations.set(declared, [...(declarations.get(declared) ?? []), node]);
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && CHILD_PROCESS_MODULES.has(node.moduleSpecifier.text)) {
      const clause = node.importClause;
      if (clause?.name) namespaces.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) namespaces.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) spawners.set(element.name.text, (element.propertyName ?? element.name).text);
      }
    }
    if (ts.isVariableDeclaration(node) && node.initializer && ts.isCallExpression(node.initializer)) {
      const call = node.initializer;
      const callee = call.expression.getText(source);
      const first = call.arguments[0];
      // const cp = require('child_process') / const { spawn } = require('node:child_process')
      if (callee === 'require' && first && ts.isStringLiteral(first) && CHILD_PROCESS_MODULES.has(first.text)) {
        if (ts.isIdentifier(node.name)) namespaces.add(node.name.text);
        else if (ts.isObjectBindingPattern(node.name)) {
          for (const element of node.name.elements) {
            if (ts.isIdentifier(element.name)) spawners.set(element.name.text, (element.propertyName ?? element.name).getText(source));
          }
        }
      }
      // const run = promisify(execFile)
      if (/(^|\.)promisify$/.test(callee) && first && ts.isIdentifier(first) && spawners.has(first.text) && ts.isIdentifier(node.name)) {
        spawners.set(node.name.text, spawners.get(first.text)!);
      }
    }
  });
  return { file, source, spawners, namespaces, declarations, calls };
}

class Resolver {
  private readonly files: Map<string, ScannedFile>;
  private readonly parsed = new Map<string, Parsed>();

  constructor(files: readonly ScannedFile[]) {
    this.files = new Map(files.map((file) => [file.path, file]));
  }

  unit(filePath: string): Parsed | undefined {
    const file = this.files.get(filePath);
    if (!file) return undefined;
    let unit = this.parsed.get(filePath);
    if (!unit) this.parsed.set(filePath, (unit = parse(file)));
    return unit;
  }

  /** The commands a node starts, if it is a spawning call or an `executablePath:` property. */
  commandsAt(unit: Parsed, node: ts.Node): Value[] {
    if (ts.isPropertyAssignment(node) && node.name.getText(unit.source) === 'executablePath') {
      return this.resolve(unit, node.initializer, 0).map((v) => tag(v, 'executablePath'));
    }
    if (!ts.isCallExpression(node)) return [];
    const spawner = this.spawnerOf(unit, node.expression);
    const first = node.arguments[0];
    if (!spawner || !first) return [];
    if (spawner === 'fork') return [{ command: NODE_ITSELF, via: 'fork', file: unit.file.path, line: lineOf(unit.source, node) }];
    if (SHELL_SPAWNERS.has(spawner)) return this.scriptCommands(unit, first, spawner);
    const commands = this.resolve(unit, first, 0).map((v) => tag(v, spawner));
    // sh -c SCRIPT: the programs inside the script too.
    const args = node.arguments[1] && constant(unit, node.arguments[1]);
    if (commands.some((v) => 'command' in v && SHELLS.has(v.command)) && args && ts.isArrayLiteralExpression(args)) {
      const dashC = args.elements.findIndex((e) => ts.isStringLiteral(e) && e.text === '-c');
      const script = dashC >= 0 ? args.elements[dashC + 1] : undefined;
      if (script) commands.push(...this.scriptCommands(unit, script, 'sh -c'));
    }
    return commands;
  }

  private spawnerOf(unit: Parsed, callee: ts.Expression): string | undefined {
    if (ts.isIdentifier(callee)) return unit.spawners.get(callee.text);
    if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && unit.namespaces.has(callee.expression.text)) {
      const name = callee.name.text;
      return FILE_SPAWNERS.has(name) || SHELL_SPAWNERS.has(name) || name === 'fork' ? name : undefined;
    }
    return undefined;
  }

  /** Programs in a shell script; a script built at run time is read from its fixed parts. */
  private scriptCommands(unit: Parsed, node: ts.Expression, via: string): Value[] {
    const literal = stringParts(constant(unit, node));
    const at = { file: unit.file.path, line: lineOf(unit.source, node) };
    if (literal !== undefined) return shellCommands(literal).map((command) => ({ command, via, ...at }));
    return [{ unresolved: { ...at, expression: node.getText(unit.source), why: 'a shell script built at run time' } }];
  }

  private resolve(unit: Parsed, node: ts.Expression, depth: number): Value[] {
    const at = { file: unit.file.path, line: lineOf(unit.source, node) };
    const fail = (why: string): Value[] => [{ unresolved: { ...at, expression: node.getText(unit.source), why } }];
    if (depth > MAX_DEPTH) return fail('followed too many steps');
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [{ command: path.posix.basename(node.text), via: '', ...at }];
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node) || ts.isSatisfiesExpression(node)) {
      return this.resolve(unit, node.expression, depth + 1);
    }
    if (ts.isConditionalExpression(node)) return [...this.resolve(unit, node.whenTrue, depth + 1), ...this.resolve(unit, node.whenFalse, depth + 1)];
    if (ts.isBinaryExpression(node) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(node.operatorToken.kind)) {
      // `options.command ?? 'tesseract'`: the fallback is what runs unless a caller overrides it.
      const fallback = this.resolve(unit, node.right, depth + 1);
      const given = this.resolve(unit, node.left, depth + 1).filter((v) => 'command' in v);
      return [...given, ...fallback];
    }
    const text = node.getText(unit.source);
    if (text === 'process.execPath') return [{ command: NODE_ITSELF, via: '', ...at }];
    if (ts.isIdentifier(node)) return this.resolveIdentifier(unit, node, depth);
    if (ts.isPropertyAccessExpression(node) && node.expression.kind === ts.SyntaxKind.ThisKeyword) return this.resolveField(unit, node, depth);
    return fail('not a fixed name');
  }

  private resolveIdentifier(unit: Parsed, node: ts.Identifier, depth: number): Value[] {
    const fail = (why: string): Value[] => [{ unresolved: { file: unit.file.path, line: lineOf(unit.source, node), expression: node.text, why } }];
    const declaration = findDeclaration(unit, node);
    if (!declaration) return fail('no declaration found');
    if (ts.isVariableDeclaration(declaration)) {
      return declaration.initializer ? this.resolve(unit, declaration.initializer, depth + 1) : fail('declared without a value');
    }
    if (ts.isParameter(declaration)) return this.resolveParameter(unit, declaration, undefined, depth);
    if (ts.isBindingElement(declaration)) {
      const pattern = declaration.parent;
      if (ts.isObjectBindingPattern(pattern) && ts.isParameter(pattern.parent)) {
        const key = (declaration.propertyName ?? declaration.name).getText(unit.source);
        return this.resolveParameter(unit, pattern.parent, { key, fallback: declaration.initializer }, depth);
      }
      return fail('destructured from a value computed at run time');
    }
    if (ts.isImportSpecifier(declaration)) {
      const specifier = declaration.parent.parent.parent.moduleSpecifier;
      const target = ts.isStringLiteral(specifier) ? this.moduleUnit(unit.file.path, specifier.text) : undefined;
      const exported = target ? findTopLevelVariable(target.source, (declaration.propertyName ?? declaration.name).text) : undefined;
      if (!target || !exported?.initializer) return fail('imported from a module outside the scan');
      return this.resolve(target, exported.initializer, depth + 1);
    }
    return fail('not a constant');
  }

  /** `this.command`: what the class assigns to the field. */
  private resolveField(unit: Parsed, node: ts.PropertyAccessExpression, depth: number): Value[] {
    const owner = findAncestor(node, ts.isClassLike);
    const name = node.name.text;
    const sources: ts.Expression[] = [];
    if (owner) {
      visit(owner, (n) => {
        if (ts.isPropertyDeclaration(n) && n.name.getText(unit.source) === name && n.initializer) sources.push(n.initializer);
        if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && n.left.getText(unit.source) === `this.${name}`) sources.push(n.right);
      });
    }
    if (sources.length === 0) return [{ unresolved: { file: unit.file.path, line: lineOf(unit.source, node), expression: node.getText(unit.source), why: 'no value assigned in the class' } }];
    return sources.flatMap((source) => this.resolve(unit, source, depth + 1));
  }

  /**
   * A wrapper's parameter: what its callers pass (in this file, and in files importing it).
   * With `property`, the parameter is destructured and `key` is read from an object argument.
   */
  private resolveParameter(unit: Parsed, parameter: ts.ParameterDeclaration, property: { key: string; fallback?: ts.Expression } | undefined, depth: number): Value[] {
    const fn = parameter.parent as ts.SignatureDeclaration;
    const index = fn.parameters.indexOf(parameter);
    const name = functionName(fn);
    const fail = (why: string): Value[] => [{ unresolved: { file: unit.file.path, line: lineOf(unit.source, parameter), expression: parameter.getText(unit.source), why } }];
    if (!name) return fail('a parameter of an unnamed function');
    const calls = this.callsOf(unit, name, ts.isMethodDeclaration(fn), isExported(fn));
    if (calls.length === 0) return fail(`${name}() is never called here`);
    return calls.flatMap(({ caller, call }) => {
      let argument: ts.Expression | undefined = call.arguments[index];
      if (property) {
        if (argument && !ts.isObjectLiteralExpression(argument)) return this.resolve(caller, argument, depth + 1);
        const given = argument?.properties.find((p) => p.name?.getText(caller.source) === property.key);
        if (given && ts.isPropertyAssignment(given)) return this.resolve(caller, given.initializer, depth + 1).map((v) => tag(v, `${name}()`));
        if (given && ts.isShorthandPropertyAssignment(given)) return this.resolve(caller, given.name, depth + 1).map((v) => tag(v, `${name}()`));
        argument = undefined;
        if (property.fallback) return this.resolve(unit, property.fallback, depth + 1).map((v) => tag(v, `${name}()`));
      }
      argument ??= parameter.initializer;
      if (!argument) return [{ unresolved: { file: caller.file.path, line: lineOf(caller.source, call), expression: call.getText(caller.source), why: `no argument ${index + 1}` } }];
      return this.resolve(argument.getSourceFile() === caller.source ? caller : unit, argument, depth + 1).map((v) => tag(v, `${name}()`));
    });
  }

  private callsOf(unit: Parsed, name: string, isMethod: boolean, exported: boolean): Array<{ caller: Parsed; call: ts.CallExpression }> {
    const calls: Array<{ caller: Parsed; call: ts.CallExpression }> = [];
    const collect = (caller: Parsed, local: string): void => {
      for (const call of caller.calls) {
        const callee = call.expression;
        const hit = isMethod
          ? ts.isPropertyAccessExpression(callee) && callee.name.text === local
          : ts.isIdentifier(callee) && callee.text === local;
        if (hit) calls.push({ caller, call });
      }
    };
    collect(unit, name);
    if (isMethod || !exported) return calls;
    for (const file of this.files.values()) {
      if (file.path === unit.file.path || !file.text.includes(name)) continue;
      const other = this.unit(file.path)!;
      for (const n of other.declarations.get(name) ?? []) {
        if (!ts.isImportSpecifier(n)) continue;
        const specifier = n.parent.parent.parent.moduleSpecifier;
        if (ts.isStringLiteral(specifier) && this.moduleUnit(other.file.path, specifier.text) === unit) collect(other, n.name.text);
      }
      // import { run as go }: the local name differs from the exported one.
      visit(other.source, (n) => {
        if (ts.isImportSpecifier(n) && n.propertyName?.text === name) {
          const specifier = n.parent.parent.parent.moduleSpecifier;
          if (ts.isStringLiteral(specifier) && this.moduleUnit(other.file.path, specifier.text) === unit) collect(other, n.name.text);
        }
      });
    }
    return calls;
  }

  private moduleUnit(from: string, specifier: string): Parsed | undefined {
    if (!specifier.startsWith('.')) return undefined;
    const base = path.posix.join(path.posix.dirname(from), specifier);
    for (const candidate of [base, `${base}.ts`, `${base}.mjs`, `${base}.js`, `${base}/index.ts`, base.replace(/\.js$/, '.ts')]) {
      if (this.files.has(candidate)) return this.unit(candidate);
    }
    return undefined;
  }
}

function tag(value: Value, via: string): Value {
  return 'command' in value ? { ...value, via: value.via ? `${via} -> ${value.via}` : via } : value;
}

/** Follows a name to the value it was declared with (same file), else the expression itself. */
function constant(unit: Parsed, node: ts.Expression): ts.Expression {
  let current = node;
  for (let i = 0; i < MAX_DEPTH && ts.isIdentifier(current); i++) {
    const declaration = findDeclaration(unit, current);
    if (!declaration || !ts.isVariableDeclaration(declaration) || !declaration.initializer) break;
    current = declaration.initializer;
  }
  return current;
}

/** The innermost declaration of `node`'s name whose scope holds `node`. */
function findDeclaration(unit: Parsed, node: ts.Identifier): ts.Node | undefined {
  let best: { declaration: ts.Node; scopeSize: number } | undefined;
  for (const declared of unit.declarations.get(node.text) ?? []) {
    const scope = ts.isImportSpecifier(declared) ? unit.source : (findAncestor(declared.parent, isScope) ?? unit.source);
    if (node.pos < scope.pos || node.end > scope.end) continue;
    const size = scope.end - scope.pos;
    if (!best || size < best.scopeSize) best = { declaration: declared, scopeSize: size };
  }
  return best?.declaration;
}

function isScope(node: ts.Node): boolean {
  return ts.isFunctionLike(node) || ts.isBlock(node) || ts.isSourceFile(node) || ts.isForOfStatement(node) || ts.isForStatement(node);
}

function findTopLevelVariable(source: ts.SourceFile, name: string): ts.VariableDeclaration | undefined {
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const found = statement.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === name);
    if (found) return found;
  }
  return undefined;
}

function isExported(fn: ts.SignatureDeclaration): boolean {
  const holder = ts.isFunctionDeclaration(fn) ? fn : fn.parent?.parent?.parent; // const f = () => ... in a VariableStatement
  return holder !== undefined && ts.canHaveModifiers(holder) && (ts.getModifiers(holder) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function functionName(fn: ts.SignatureDeclaration): string | undefined {
  if ((ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)) && fn.name) return fn.name.getText();
  if ((ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && ts.isVariableDeclaration(fn.parent) && ts.isIdentifier(fn.parent.name)) return fn.parent.name.text;
  return undefined;
}

function findAncestor<T extends ts.Node>(node: ts.Node | undefined, test: (n: ts.Node) => n is T): T | undefined;
function findAncestor(node: ts.Node | undefined, test: (n: ts.Node) => boolean): ts.Node | undefined;
function findAncestor(node: ts.Node | undefined, test: (n: ts.Node) => boolean): ts.Node | undefined {
  for (let n = node; n; n = n.parent) if (test(n)) return n;
  return undefined;
}

function visit(node: ts.Node, fn: (node: ts.Node) => void): void {
  fn(node);
  node.forEachChild((child) => visit(child, fn));
}

function lineOf(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}
