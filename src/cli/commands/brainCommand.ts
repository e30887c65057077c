import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { BrainStore } from '../../navigation/store/brainStore';
import { errorMessage, GaiError, isGaiError } from '../../common/errors';
import type { Logger } from '../../common/logger';
import { ensureBrainDir, resolveBrainDir } from '../brainDir';
import { brainView, formatBrain, formatImportSummary } from '../brainFormat';
import { err, EXIT, out, type CliIo } from '../../common/cliIo';
import { unconfirmedPaths } from '../../navigation/routes/pathTrust';
import { confirmSteps, formatPendingPaths } from './brainConfirm';

// `gai brain show|export|import|forget|rename`: look at and edit the navigation brain the CLI
// keeps in its user data folder (or --brain-dir / $GAI_BRAIN_DIR).

export interface BrainCommandDeps {
  io: CliIo;
  setExit: (code: number) => void;
  logger: () => Logger;
  /** `brain.dir` from the config file, if any. */
  configuredDir?: () => string | undefined;
}

interface DirOption {
  brainDir?: string;
}

interface JsonOption {
  json?: boolean;
}

export function registerBrainCommands(program: Command, deps: BrainCommandDeps): void {
  const { io, setExit } = deps;

  /** Opens the brain the options point at; every warning the store reports goes to stderr once. */
  const open = async (options: DirOption) => {
    const dir = await ensureBrainDir(resolveBrainDir({ flag: options.brainDir, env: io.env, configured: deps.configuredDir?.() }));
    const logger = reportingLogger(deps.logger());
    const opened = await BrainStore.open(dir, { logger });
    return { ...opened, logged: logger.warned };
  };

  const run = reportingAction(io, setExit, 'gai brain', exitCodeFor);

  const brain = program.command('brain').description('show, export, import and edit the navigation brain (learned screens and paths)');
  const withDir = (command: Command): Command => command.option('--brain-dir <dir>', 'the brain folder (default: $GAI_BRAIN_DIR, else the user data folder)');

  withDir(brain.command('show'))
    .description('print the learned screens (nodes), paths between them and their statistics')
    .option('--json', 'print {nodes, paths, stats} as JSON')
    .action(
      run(async (options: DirOption & JsonOption) => {
        const { store, document } = await open(options);
        out(io, options.json ? JSON.stringify(brainView(document), null, 2) + '\n' : formatBrain(document, store.file));
      }),
    );

  withDir(brain.command('export'))
    .description('write the whole brain document as JSON')
    .argument('[file]', 'where to write it (default: stdout)')
    .action(
      run(async (file: string | undefined, options: DirOption) => {
        const { store } = await open(options);
        const text = JSON.stringify(store.export(), null, 2) + '\n';
        if (file === undefined) return out(io, text);
        const target = resolve(file);
        await writeFile(target, text, { mode: 0o600 });
        err(io, `Exported ${store.file} to ${target}\n`);
      }),
    );

  withDir(brain.command('import'))
    .description('merge a brain document into the brain (validated first: when invalid, nothing is written)')
    .argument('<file>', 'a brain document, e.g. from `gai brain export`')
    .option('--replace', 'make it the brain instead of merging it')
    .option('--json', 'print the summary as JSON')
    .action(
      run(async (file: string, options: DirOption & JsonOption & { replace?: boolean }) => {
        const value = await readDocument(file);
        const { store, logged } = await open(options);
        const mode = options.replace ? 'replace' : 'merge';
        const imported = await store.import(value, { mode });
        // Migration warnings are returned but not logged by the store.
        for (const warning of imported.warnings.filter((w) => !logged.has(w))) err(io, `gai brain: warning: ${warning}\n`);
        const unconfirmed = unconfirmedPaths(store.document).length;
        out(io, options.json ? JSON.stringify({ mode, ...imported.result, unconfirmed, written: imported.written }, null, 2) + '\n' : formatImportSummary(imported.result, mode));
        if (!options.json && unconfirmed > 0) {
          out(io, `${unconfirmed} imported path(s) are not trusted yet: their steps ask before they run. Review and confirm them with \`gai brain confirm\`.\n`);
        }
      }),
    );

  withDir(brain.command('confirm'))
    .description('review the steps of imported paths one by one and trust them (they then replay without asking)')
    .option('--path <id>', 'only this path (default: every imported path not confirmed yet)')
    .option('--yes', 'confirm the listed paths without asking for each step')
    .option('--json', 'print the confirmed path ids as JSON')
    .action(
      run(async (options: DirOption & JsonOption & { path?: string; yes?: boolean }) => {
        const { store } = await open(options);
        const pending = unconfirmedPaths(store.document).filter((p) => options.path === undefined || p.id === options.path);
        if (options.path !== undefined && !store.document.paths.some((p) => p.id === options.path)) {
          throw new GaiError('BRAIN_NOT_FOUND', `confirm: --path: no path with id "${options.path}"`);
        }
        if (!options.yes && !io.interactive && pending.length > 0) {
          err(io, formatPendingPaths(store.document, pending));
          throw new GaiError('INVALID_INPUT', 'confirm: each step must be looked at: run it on a terminal, or pass --yes after reading the steps above');
        }
        const confirmed: string[] = [];
        for (const path of pending) {
          err(io, formatPendingPaths(store.document, [path]));
          if (options.yes || (await confirmSteps(io, path))) {
            await store.confirmPath(path.id);
            confirmed.push(path.id);
          }
        }
        out(io, options.json ? JSON.stringify({ confirmed }) + '\n' : `Confirmed ${confirmed.length} of ${pending.length} path(s)${confirmed.length ? `: ${confirmed.join(', ')}` : ''}.\n`);
      }),
    );

  withDir(brain.command('forget'))
    .description('remove a node (with every path from or to it) or a path')
    .option('--node <key>', 'the node key (programName::stateHash), as `gai brain show` lists it')
    .option('--path <id>', 'the path id')
    .option('--json', 'print what was removed as JSON')
    .action(
      run(async (options: DirOption & JsonOption & { node?: string; path?: string }) => {
        if ((options.node === undefined) === (options.path === undefined)) throw new GaiError('INVALID_INPUT', 'forget: give exactly one of --node KEY or --path ID');
        const { store } = await open(options);
        if (options.node !== undefined) {
          const label = store.document.nodes.find((n) => n.key === options.node)?.label;
          const paths = await store.forgetNode(options.node);
          out(io, options.json ? JSON.stringify({ node: options.node, paths }) + '\n' : `Forgot node ${options.node}${label ? ` ("${label}")` : ''} and ${paths.length} path(s)${paths.length ? `: ${paths.join(', ')}` : ''}.\n`);
        } else if (options.path !== undefined) {
          await store.forgetPath(options.path);
          out(io, options.json ? JSON.stringify({ paths: [options.path] }) + '\n' : `Forgot path ${options.path}.\n`);
        }
      }),
    );

  withDir(brain.command('rename'))
    .description('give a node a new label')
    .requiredOption('--node <key>', 'the node key (programName::stateHash)')
    .argument('<label>', 'the new label')
    .option('--json', 'print the renamed node as JSON')
    .action(
      run(async (label: string, options: DirOption & JsonOption & { node: string }) => {
        if (label.trim() === '') throw new GaiError('INVALID_INPUT', 'rename: the label is empty');
        const { store } = await open(options);
        const before = store.document.nodes.find((n) => n.key === options.node)?.label;
        const node = await store.renameNode(options.node, label);
        out(io, options.json ? JSON.stringify({ key: node.key, label: node.label, previous: before ?? '' }) + '\n' : `Renamed ${node.key}: "${before ?? ''}" → "${node.label}".\n`);
      }),
    );
}

/** Reads and parses FILE; unreadable or not JSON is bad input (exit 2), like an invalid document. */
async function readDocument(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new GaiError('INVALID_INPUT', `import: cannot read ${file} (${errorMessage(error)})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new GaiError('BRAIN_INVALID', `import: ${file} is not valid JSON (${errorMessage(error)})`);
  }
}

/** Wraps a command's action: a brain error becomes `prefix: message` and an exit code instead of a stack. */
export function reportingAction(io: CliIo, setExit: (code: number) => void, prefix: string, codeFor: (error: GaiError) => number) {
  return <A extends unknown[]>(action: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      try {
        await action(...args);
        setExit(EXIT.ok);
      } catch (error) {
        if (!isGaiError(error)) throw error;
        err(io, `${prefix}: ${error.message}\n`);
        setExit(codeFor(error));
      }
    };
}

function exitCodeFor(error: GaiError): number {
  switch (error.code) {
    case 'INVALID_INPUT':
    case 'CONFIG':
    case 'BRAIN_INVALID':
      return EXIT.usage;
    default:
      return EXIT.failed;
  }
}

/** Passes warnings on and remembers them, so warnings the store also returns are not printed twice. */
function reportingLogger(inner: Logger): Logger & { warned: Set<string> } {
  const warned = new Set<string>();
  return {
    warned,
    debug: (m) => inner.debug(m),
    info: (m) => inner.info(m),
    warn: (m) => {
      warned.add(m.replace(/^brain: /, ''));
      inner.warn(m);
    },
    error: (m) => inner.error(m),
  };
}
