// What `npm test` runs: lint, type-check, the dependency rules, the build, then the mocha suites;
// ends with one summary line. --no-lint skips eslint and the dependency rules (both static rules
// about the source); --no-deps only the dependency rules.
// Usage: node scripts/test.mjs [--suite NAME] [--no-lint] [--no-typecheck] [--no-deps] [-- extra mocha args]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// The mocha suites, in run order. `setup` (optional, async) may return
// { env?: Record<string, string>, teardown?: () => Promise<void> | void },
// e.g. to start a virtual display before the desktop suite and stop it afterwards.
const SUITES = [
  {
    name: 'unit',
    glob: 'test/**/*.test.ts',
    // These suites need a VS Code instance or a desktop session and get their own entries.
    ignore: ['test/vscode/**', 'test/desktop/**'],
  },
  {
    name: 'desktop',
    glob: 'test/desktop/**/*.test.ts',
    setup: startVirtualDisplay,
  },
  {
    name: 'vscode',
    glob: 'test/vscode/**/*.test.ts',
    setup: installVscodeHost,
  },
];

/**
 * Installs the real VS Code host (VS Code server from code-server, Node 24, playwright-core,
 * chromium) into ${XDG_CACHE_HOME:-~/.cache}/gai-vscode-host unless already there: about
 * 2 minutes and 0.8 GB the first time on a machine, instant afterwards.
 */
async function installVscodeHost() {
  const result = await runNode([join(root, 'scripts/vscodeHost/install.mjs')]);
  if (result.code !== 0) throw new Error(`scripts/vscodeHost/install.mjs failed (${describeExit(result)})`);
  return {};
}

/**
 * Starts a private Xvfb + openbox for the desktop suite, here in the runner rather than in a
 * mocha root hook: mocha starts with DISPLAY already set (before any test file loads nut-js),
 * and the display is stopped even when mocha crashes (an X error can abort Node outright) or
 * is killed by the hang watchdog.
 */
async function startVirtualDisplay() {
  // tsImport loads the product's TypeScript module without registering tsx process-wide.
  const { tsImport } = await import('tsx/esm/api');
  const module = await tsImport('../src/platform/linux/x11/virtualDisplay.ts', import.meta.url);
  const VirtualDisplay = module.VirtualDisplay ?? module.default?.VirtualDisplay;
  const startedAt = Date.now();
  const display = await VirtualDisplay.start();
  console.log(
    `test: virtual display ${display.display} (${display.width}x${display.height}, openbox) ready in ${Date.now() - startedAt} ms`,
  );
  // What display.env changes (DISPLAY, and Wayland and D-Bus variables removed); undefined
  // drops a variable from mocha's environment, since spawn skips such keys.
  const changes = {};
  for (const key of new Set([...Object.keys(process.env), ...Object.keys(display.env)])) {
    if (process.env[key] !== display.env[key]) changes[key] = display.env[key];
  }
  return {
    env: {
      ...changes,
      // Marks DISPLAY as the runner's: the tests refuse to run on anything else.
      GAI_TEST_DISPLAY: display.display,
      GAI_TEST_OUTER_DISPLAY: process.env.DISPLAY ?? '',
    },
    teardown: async () => {
      const { xvfb, windowManager, watchdog } = display.processIds;
      await display.stop();
      const groups = [xvfb, windowManager, watchdog].filter((pid) => pid !== undefined && pid > 0);
      const left = livingProcesses(groups);
      if (left.length > 0) throw new Error(`processes of the virtual display outlived it:\n${left.join('\n')}`);
    },
  };
}

/**
 * `pgrep -a` lines of the processes in these process groups, zombies left out: an orphaned
 * child (the watchdog's `sleep`) stays a zombie until init reaps it, which is not a leak.
 */
function livingProcesses(groups) {
  const found = spawnSync('pgrep', ['-a', '-g', groups.join(',')], { encoding: 'utf8' });
  if (found.status !== 0) return [];
  return found.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => {
      try {
        const stat = readFileSync(`/proc/${line.split(' ')[0]}/stat`, 'utf8');
        return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
      } catch {
        return false; // gone since pgrep looked
      }
    });
}

const MOCHA_TIMEOUT_MS = 20000;
// Tests must close their handles (no --exit); if mocha is still alive this long after the
// last test, something leaked (timer, socket, child process) and we stop it instead of hanging.
const EXIT_GRACE_MS = 10000;

// Run tools through node directly: no npx lookup, and no .cmd shims on Windows.
const BIN = {
  eslint: join(root, 'node_modules/eslint/bin/eslint.js'),
  tsc: join(root, 'node_modules/typescript/bin/tsc'),
  mocha: join(root, 'node_modules/mocha/bin/mocha.js'),
};
const REPORTER = join(root, 'scripts/mochaSummaryReporter.cjs');

const totals = { passed: 0, failed: 0, skipped: 0 };

function parseArgs(argv) {
  const options = { suite: undefined, lint: true, typecheck: true, deps: true, mochaArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      options.mochaArgs = argv.slice(i + 1);
      break;
    } else if (arg === '--suite' || arg.startsWith('--suite=')) {
      options.suite = arg === '--suite' ? argv[++i] : arg.slice('--suite='.length);
      if (!options.suite) usage('--suite needs a suite name');
    } else if (arg === '--no-lint') options.lint = false;
    else if (arg === '--no-typecheck') options.typecheck = false;
    else if (arg === '--no-deps') options.deps = false;
    else usage(`unknown argument ${arg}`);
  }
  if (options.suite !== undefined && !SUITES.some((suite) => suite.name === options.suite)) {
    usage(`unknown suite "${options.suite}"; known suites: ${SUITES.map((suite) => suite.name).join(', ')}`);
  }
  return options;
}

function usage(message) {
  console.error(`test: ${message}`);
  console.error('usage: node scripts/test.mjs [--suite NAME] [--no-lint] [--no-typecheck] [--no-deps] [-- extra mocha args]');
  process.exit(2);
}

/** Starts `node ...args` with inherited stdio; resolves with its exit code (or signal). */
function runNode(args, { env, onSpawn } = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    const stopWatching = onSpawn?.(child);
    child.on('error', (error) => {
      stopWatching?.();
      console.error(`test: could not start node: ${error.message}`);
      resolvePromise({ code: 1, signal: null });
    });
    child.on('exit', (code, signal) => {
      stopWatching?.();
      resolvePromise({ code, signal });
    });
  });
}

function describeExit({ code, signal }) {
  return signal ? `signal ${signal}` : `exit ${code}`;
}

/** Lint, type-check, the dependency rules and the build count as one check each. */
async function runCheck(name, args) {
  console.log(`\n> ${name}`);
  const result = await runNode(args);
  if (result.code === 0) {
    totals.passed++;
  } else {
    totals.failed++;
    console.log(`test: ${name} failed (${describeExit(result)})`);
  }
}

/** Kills mocha if it outlives its summary file by EXIT_GRACE_MS (a leaked handle). */
function watchForHang(summaryFile, state) {
  return (child) => {
    let deadline;
    const timer = setInterval(() => {
      if (deadline === undefined) {
        if (existsSync(summaryFile)) deadline = Date.now() + EXIT_GRACE_MS;
      } else if (Date.now() > deadline) {
        clearInterval(timer);
        state.hung = true;
        console.error(
          `test: mocha did not exit ${EXIT_GRACE_MS / 1000}s after the last test; ` +
            'a test left a handle open (timer, server, socket, child process). Stopping it.',
        );
        child.kill('SIGKILL');
      }
    }, 250);
    return () => clearInterval(timer);
  };
}

async function runSuite(suite, extraMochaArgs) {
  console.log(`\n> mocha suite "${suite.name}" (${suite.glob})`);
  const tempDir = mkdtempSync(join(tmpdir(), 'gai-mocha-'));
  const summaryFile = join(tempDir, 'summary.json');
  let teardown;
  try {
    const prepared = (await suite.setup?.()) ?? {};
    teardown = prepared.teardown;
    const args = [
      // tsx's loader registers both the ESM and the CommonJS hooks, so .ts test files load
      // however mocha asks for them. Given to node (not to mocha, which would fork a second
      // process for it) so the hang watchdog can stop mocha directly.
      '--import=tsx',
      BIN.mocha,
      '--reporter',
      REPORTER,
      '--timeout',
      String(MOCHA_TIMEOUT_MS),
      ...(suite.ignore ?? []).flatMap((pattern) => ['--ignore', pattern]),
      ...extraMochaArgs,
      suite.glob,
    ];
    const state = { hung: false };
    const result = await runNode(args, {
      env: { ...prepared.env, GAI_MOCHA_SUMMARY: summaryFile },
      onSpawn: watchForHang(summaryFile, state),
    });
    if (!existsSync(summaryFile)) {
      // Mocha stopped before its run ended: a test file failed to load, or no files matched.
      totals.failed++;
      console.log(`test: suite "${suite.name}" did not run to the end (${describeExit(result)})`);
      return;
    }
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
    totals.passed += summary.passes;
    totals.failed += summary.failures;
    totals.skipped += summary.pending;
    // All tests passed but mocha still failed (uncaught error after the run, or a hang).
    if (summary.failures === 0 && (result.code !== 0 || state.hung)) {
      totals.failed++;
      console.log(`test: suite "${suite.name}" exited abnormally (${state.hung ? 'hung' : describeExit(result)})`);
    }
  } catch (error) {
    totals.failed++;
    console.log(`test: suite "${suite.name}" setup failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    try {
      await teardown?.();
    } catch (error) {
      totals.failed++;
      console.log(`test: suite "${suite.name}" teardown failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    rmSync(tempDir, { recursive: true, force: true });
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.lint) await runCheck('eslint .', [BIN.eslint, '.']);
  if (options.typecheck) await runCheck('tsc --noEmit -p .', [BIN.tsc, '--noEmit', '-p', '.']);
  // dependency-cruiser's layer, cycle and package rules (npm run deps without the graph); about
  // 4 s of CPU, 1 s when src/ has not changed since the last run (its cache).
  if (options.lint && options.deps) await runCheck('dependency rules (scripts/deps.mjs --check)', [join(root, 'scripts/deps.mjs'), '--check']);
  // The bundles are what people run; the CLI tests run dist/cli.js.
  await runCheck('build (esbuild)', [join(root, 'esbuild.config.mjs')]);
  const suites = options.suite === undefined ? SUITES : SUITES.filter((suite) => suite.name === options.suite);
  for (const suite of suites) await runSuite(suite, options.mochaArgs);

  const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : '';
  console.log(`\n${totals.passed} passed, ${totals.failed} failed${skipped}`);
  process.exitCode = totals.failed > 0 ? 1 : 0;
}

await main();
