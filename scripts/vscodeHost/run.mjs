// Runs an extension's tests inside a REAL VS Code extension host: the VS Code server bundled in
// code-server (installed by ./install.mjs into a cache outside the clone), with headless Debian
// chromium as the workbench, the same extensionDevelopmentPath / extensionTestsPath mechanism
// as @vscode/test-electron. The file `testsPath` points to must export `run(): Promise<void>`;
// the workbench reports its outcome through `codeAutomationExit(code)`.
//
//   import { runInHost } from './scripts/vscodeHost/run.mjs';
//   const { exitCode, logs } = await runInHost({ extensionPath, testsPath, timeoutMs: 120_000 });
//
// CLI: node scripts/vscodeHost/run.mjs --extension PATH --tests PATH [--workspace PATH]
//        [--timeout MS] [--env KEY=VALUE]... [--keep] [--verbose]
// Exit code: the in-host suite's exit code; 124 on timeout; 2 for launcher errors.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hostPaths } from './install.mjs';

export const DEFAULT_TIMEOUT_MS = 120_000;
const LISTEN_TIMEOUT_MS = 30_000;
const MAX_LOG_LINES = 5_000;

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

const USER_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'git.enabled': false,
  'chat.disableAIFeatures': true,
};

export class HostRunError extends Error {
  constructor(message, { logs = [], timedOut = false } = {}) {
    super(message);
    this.name = 'HostRunError';
    this.logs = logs;
    this.timedOut = timedOut;
  }
}

/**
 * Starts the VS Code server and a headless browser, runs the extension tests, and always stops
 * both (the server by its process group: extension hosts otherwise outlive everything).
 * Resolves with { exitCode, logs, logFiles, durationMs, serverPid, jobDir? } (logFiles: the workbench's
 * log files as [{ relativePath, contents }]); rejects with HostRunError (carrying
 * the logs so far) on timeout or when the server or browser cannot start.
 *
 * @param {object} options
 * @param {string} options.extensionPath folder with the extension's package.json
 * @param {string} options.testsPath the module exporting run() (with or without .js)
 * @param {string} [options.workspace] folder to open; an empty one in the job folder otherwise
 * @param {string[]} [options.extraExtensionPaths] more extension folders, installed in the run's extensions folder
 * @param {number} [options.timeoutMs] whole run, start-up included
 * @param {Record<string, string>} [options.env] extra environment for the server and thus the extension host
 * @param {boolean} [options.keepJobDir] keep the job folder (logs, user data) for debugging
 * @param {string} [options.screenshotDir] where specs' pictures of the whole workbench go: the host gets
 *   GAI_WORKBENCH_SHOT, a loopback URL (with a token) to POST `<name>.png` to
 * @param {(line: string) => void} [options.onLog] called with every log line as it arrives
 */
/** Copies extension folders into `extensionsDir` and lists them in its extensions.json, as an install would. */
function installExtensions(folders, extensionsDir) {
  const entries = folders.map((folder) => {
    const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    const id = `${pkg.publisher}.${pkg.name}`;
    const relativeLocation = `${id}-${pkg.version}`;
    const location = join(extensionsDir, relativeLocation);
    cpSync(folder, location, { recursive: true });
    return { identifier: { id }, version: pkg.version, location: { $mid: 1, path: location, scheme: 'file' }, relativeLocation, metadata: { installedTimestamp: Date.now() } };
  });
  if (entries.length) writeFileSync(join(extensionsDir, 'extensions.json'), JSON.stringify(entries));
}

export async function runInHost(options) {
  const { timeoutMs = DEFAULT_TIMEOUT_MS, env: extraEnv = {}, keepJobDir = false, onLog } = options;
  if (!options.extensionPath || !options.testsPath) throw new TypeError('runInHost needs extensionPath and testsPath');
  const extensionPath = resolve(options.extensionPath);
  const testsPath = resolve(options.testsPath);
  if (!existsSync(join(extensionPath, 'package.json'))) throw new HostRunError(`no package.json in ${extensionPath}`);
  if (!existsSync(testsPath) && !existsSync(`${testsPath}.js`)) throw new HostRunError(`tests module ${testsPath} does not exist`);

  const paths = hostPaths();
  for (const [what, path] of [['Node 24', paths.node], ['the VS Code server', paths.serverMain], ['playwright-core', paths.playwrightCore], ['chromium', paths.chromium]]) {
    if (!existsSync(path)) throw new HostRunError(`${what} is missing (${path}); run node scripts/vscodeHost/install.mjs first`);
  }

  const startedAt = Date.now();
  const logs = [];
  const addLog = (line) => {
    if (logs.length < MAX_LOG_LINES) logs.push(line);
    else if (logs.length === MAX_LOG_LINES) logs.push('[launcher] (further log lines dropped)');
    onLog?.(line);
  };

  const jobDir = mkdtempSync(join(tmpdir(), 'gai-vscode-host-'));
  const dirs = {
    home: join(jobDir, 'home'),
    tmp: join(jobDir, 'tmp'),
    config: join(jobDir, 'xdg-config'),
    cache: join(jobDir, 'xdg-cache'),
    data: join(jobDir, 'xdg-data'),
    runtime: join(jobDir, 'xdg-runtime'),
    serverData: join(jobDir, 'server-data'),
    extensions: join(jobDir, 'extensions'),
    workspace: join(jobDir, 'workspace'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  // With --server-data-dir and --user-data-dir the same folder, user settings live in User/;
  // machine settings (data/Machine) apply to the remote extension host as well.
  for (const sub of ['User', join('data', 'User'), join('data', 'Machine')]) {
    mkdirSync(join(dirs.serverData, sub), { recursive: true });
    writeFileSync(join(dirs.serverData, sub, 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));
  }
  // The server loads one development extension only: test extensions are installed instead.
  installExtensions(options.extraExtensionPaths ?? [], dirs.extensions);
  const workspace = resolve(options.workspace ?? dirs.workspace);

  let server;
  let browser;
  let launching; // chromium.launch() still under way when a timeout strikes
  let shots; // the workbench screenshot endpoint, when asked for
  let resolvePage;
  const pageReady = new Promise((resolveReady) => (resolvePage = resolveReady));
  let timer;
  const exitHandler = () => killGroup(server?.pid, 'SIGKILL');
  process.on('exit', exitHandler);
  try {
    const port = await freePort();
    shots = options.screenshotDir ? await workbenchShots(options.screenshotDir, pageReady) : undefined;
    const serverEnv = {
      ...cleanEnv(process.env),
      HOME: dirs.home,
      TMPDIR: dirs.tmp,
      XDG_CONFIG_HOME: dirs.config,
      XDG_CACHE_HOME: dirs.cache,
      XDG_DATA_HOME: dirs.data,
      XDG_RUNTIME_DIR: dirs.runtime,
      ...extraEnv,
      ...(shots ? { GAI_WORKBENCH_SHOT: shots.url } : {}),
    };
    // detached: the server calls setsid() and leads its own process group, which we kill whole.
    server = spawn(
      paths.node,
      [
        paths.serverMain,
        '--host', '127.0.0.1',
        '--port', String(port),
        '--without-connection-token',
        '--accept-server-license-terms',
        '--server-data-dir', dirs.serverData,
        '--user-data-dir', dirs.serverData,
        '--extensions-dir', dirs.extensions,
        '--enable-smoke-test-driver',
        '--disable-telemetry',
        '--disable-update-check',
      ],
      { cwd: dirs.home, env: serverEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const serverExited = new Promise((resolveExit) => {
      server.on('exit', (code, signal) => resolveExit({ code, signal }));
      server.on('error', (error) => resolveExit({ code: null, signal: null, error }));
    });
    pipeLines(server.stdout, (line) => addLog(`[server] ${line}`));
    pipeLines(server.stderr, (line) => addLog(`[server:err] ${line}`));

    const timeout = new Promise((_, rejectTimeout) => {
      timer = setTimeout(
        () => rejectTimeout(new HostRunError(`timed out after ${timeoutMs} ms`, { logs, timedOut: true })),
        timeoutMs,
      );
    });
    const serverDied = serverExited.then((exit) => {
      throw new HostRunError(
        `the VS Code server ended early (${exit.error?.message ?? (exit.signal ? `signal ${exit.signal}` : `exit ${exit.code}`)})`,
        { logs },
      );
    });
    // Whichever comes first: the result, a timeout, or the server dying.
    const race = (promise) => Promise.race([promise, timeout, serverDied]);

    await race(waitForPort(port, LISTEN_TIMEOUT_MS));
    addLog(`[launcher] server listening on 127.0.0.1:${port} after ${Date.now() - startedAt} ms`);

    const require = createRequire(import.meta.url);
    const { chromium } = require(paths.playwrightCore);
    launching = chromium.launch({
        executablePath: paths.chromium,
        headless: true,
        args: CHROMIUM_ARGS,
        env: { ...cleanEnv(process.env), HOME: dirs.home, TMPDIR: dirs.tmp, XDG_CONFIG_HOME: dirs.config, XDG_CACHE_HOME: dirs.cache },
      });
    browser = await race(launching);
    const page = await race(browser.newPage({ viewport: { width: 1280, height: 800 } }));
    resolvePage(page);
    const hostLogFiles = [];
    let reportExit;
    const exited = new Promise((resolveExit) => (reportExit = resolveExit));
    // The workbench passes the exit code and its log files ([{ relativePath, contents }]).
    await page.exposeFunction('codeAutomationExit', (code, logFiles) => {
      addLog(`[launcher] codeAutomationExit(${code})`);
      if (Array.isArray(logFiles)) hostLogFiles.push(...logFiles);
      reportExit(typeof code === 'number' ? code : Number(code));
    });
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      addLog(`[host:${type}] ${formatArgs(args)}`);
    });
    page.on('console', (message) => addLog(`[browser:${message.type()}] ${message.text()}`));
    page.on('pageerror', (error) => addLog(`[browser:pageerror] ${error.message}`));

    const remote = (path) => `vscode-remote://127.0.0.1:${port}${path}`;
    const payload = [
      ['extensionDevelopmentPath', remote(extensionPath)],
      ['extensionTestsPath', remote(testsPath)],
      ['skipWelcome', 'true'],
    ];
    const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    await race(page.goto(url, { waitUntil: 'domcontentloaded' }));
    const exitCode = await race(exited);
    return { exitCode, logs, logFiles: hostLogFiles, durationMs: Date.now() - startedAt, serverPid: server.pid, ...(keepJobDir ? { jobDir } : {}) };
  } catch (error) {
    if (error instanceof HostRunError) throw error;
    throw new HostRunError(`running the extension host failed: ${error?.message ?? error}`, { logs });
  } finally {
    clearTimeout(timer);
    shots?.server.close();
    if (!browser && launching) browser = await launching.catch(() => undefined);
    if (browser) {
      let closeTimer;
      await Promise.race([
        browser.close().catch(() => {}),
        new Promise((resolveClose) => (closeTimer = setTimeout(resolveClose, 5_000))),
      ]);
      clearTimeout(closeTimer);
    }
    if (server?.pid) {
      killGroup(server.pid, 'SIGTERM');
      if (!(await groupGone(server.pid, 3_000))) {
        killGroup(server.pid, 'SIGKILL');
        await groupGone(server.pid, 3_000);
      }
    }
    await stopOwnDesktopIn(dirs.runtime);
    process.off('exit', exitHandler);
    if (!keepJobDir) rmSync(jobDir, { recursive: true, force: true });
  }
}

/**
 * GAI's own desktop, if the extension started one in this run (its keeper is detached, so it
 * outlives the server's process group): its keeper, by the PID its state file in the run's
 * runtime folder names, ended like `gai desktop stop` does.
 */
async function stopOwnDesktopIn(runtimeDir) {
  let pid;
  try {
    pid = JSON.parse(readFileSync(join(runtimeDir, 'gai', 'own-desktop.json'), 'utf8')).pid;
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  for (let waited = 0; waited < 10_000; waited += 100) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
}

/** The caller's environment minus what would confuse a nested Node / VS Code. */
function cleanEnv(env) {
  const out = {};
  for (const [key, value] of Object.entries(env)) {
    if (/^(NODE_OPTIONS|ELECTRON_.*|VSCODE_.*|npm_.*|GAI_MOCHA_SUMMARY)$/i.test(key)) continue;
    out[key] = value;
  }
  return out;
}

function killGroup(pid, signal) {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** True once no living (non-zombie) process is left in the group. */
async function groupGone(pgid, withinMs) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (livingInGroup(pgid).length === 0) return true;
    if (Date.now() > deadline) return false;
    await delay(100);
  }
}

/** Pids of the living processes of a process group (zombies left out). */
export function livingInGroup(pgid) {
  const found = spawnSync('pgrep', ['-g', String(pgid)], { encoding: 'utf8' });
  if (found.status !== 0) return [];
  return found.stdout
    .split('\n')
    .filter((pid) => pid.trim() !== '')
    .filter((pid) => {
      const stat = spawnSync('cat', [`/proc/${pid}/stat`], { encoding: 'utf8' }).stdout ?? '';
      return stat !== '' && stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
    });
}

/**
 * A loopback endpoint the specs in the host call to picture the whole workbench (the host cannot
 * reach the browser page itself): POST /<token>/<name>.png writes the page's screenshot.
 */
async function workbenchShots(dir, pageReady) {
  mkdirSync(dir, { recursive: true });
  const token = randomBytes(16).toString('hex');
  const server = createHttpServer((req, res) => {
    const match = /^\/([0-9a-f]{32})\/([\w-]{1,80}\.png)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match || match[1] !== token) return void res.writeHead(404).end();
    const path = join(dir, match[2]);
    pageReady
      .then((page) => page.screenshot({ path }))
      .then(() => res.writeHead(200, { 'content-type': 'text/plain' }).end(path))
      .catch((error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error?.message ?? error)));
  });
  await new Promise((resolveListen, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolveListen));
  return { server, url: `http://127.0.0.1:${server.address().port}/${token}` };
}

function freePort() {
  return new Promise((resolvePort, rejectPort) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', rejectPort);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}

async function waitForPort(port, withinMs) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const open = await new Promise((resolveOpen) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolveOpen(true);
      });
      socket.once('error', () => resolveOpen(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new HostRunError(`the VS Code server did not listen on port ${port} within ${withinMs} ms`);
    await delay(100);
  }
}

function pipeLines(stream, onLine) {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop();
    for (const line of lines) if (line.trim() !== '') onLine(line);
  });
  stream.on('end', () => {
    if (buffered.trim() !== '') onLine(buffered);
  });
}

function formatArgs(args) {
  if (!Array.isArray(args)) return String(args);
  return args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' ');
}

function delay(ms) {
  return new Promise((resolveDelay) => setTimeout(resolveDelay, ms));
}

function parseCliArgs(argv) {
  const options = { env: {} };
  const usage = (message) => {
    console.error(`vscodeHost: ${message}`);
    console.error(
      'usage: node scripts/vscodeHost/run.mjs --extension PATH --tests PATH [--workspace PATH] [--timeout MS] [--env KEY=VALUE]... [--keep] [--verbose]',
    );
    process.exit(2);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => argv[++i] ?? usage(`${arg} needs a value`);
    if (arg === '--extension') options.extensionPath = value();
    else if (arg === '--tests') options.testsPath = value();
    else if (arg === '--workspace') options.workspace = value();
    else if (arg === '--timeout') options.timeoutMs = Number(value());
    else if (arg === '--env') {
      const pair = value();
      const at = pair.indexOf('=');
      if (at <= 0) usage(`--env needs KEY=VALUE, got ${pair}`);
      options.env[pair.slice(0, at)] = pair.slice(at + 1);
    } else if (arg === '--keep') options.keepJobDir = true;
    else if (arg === '--verbose') options.verbose = true;
    else usage(`unknown argument ${arg}`);
  }
  if (!options.extensionPath || !options.testsPath) usage('--extension and --tests are required');
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) usage('--timeout needs a positive number of milliseconds');
  return options;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const options = parseCliArgs(process.argv.slice(2));
  // Ctrl-C / kill: exit through process.exit so the 'exit' handler kills the server's group.
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
  try {
    const result = await runInHost({
      ...options,
      // Without --verbose only the launcher's own lines are shown as they come; the host's
      // log follows only when the suite fails.
      onLog: (line) => {
        if (options.verbose || line.startsWith('[launcher]')) console.log(line);
      },
    });
    if (result.exitCode !== 0 && !options.verbose) console.log(result.logs.filter((line) => line.startsWith('[host:')).slice(-60).join('\n'));
    console.log(`vscodeHost: exit code ${result.exitCode} after ${(result.durationMs / 1000).toFixed(1)} s${result.jobDir ? `; job folder ${result.jobDir}` : ''}`);
    process.exitCode = result.exitCode;
  } catch (error) {
    if (!options.verbose && error.logs?.length) console.error(error.logs.slice(-60).join('\n'));
    console.error(`vscodeHost: ${error.message}`);
    process.exitCode = error.timedOut ? 124 : 2;
  }
}
