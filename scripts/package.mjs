// `npm run package`: builds gai-<version>-<target>.vsix with @vscode/vsce, one per platform.
// Usage: node scripts/package.mjs [--target T] [--out FILE] [--keep-staging]
//        node scripts/package.mjs --all [--out-dir DIR]
// T is linux-x64, linux-arm64, win32-x64, win32-arm64, darwin-x64 or darwin-arm64 (default:
// this machine's). Other platforms' prebuilt binaries come from the npm registry
// (scripts/packaging/platformPackages.mjs); every .vsix is checked (scripts/packaging/checkVsix.mjs).
//
// esbuild bundles everything except the packages that find native binaries, a worker script,
// wasm or language data by path next to themselves (esbuild.config.mjs: NODE_EXTERNALS). So the
// .vsix carries a production build plus node_modules with exactly those packages and their
// production dependencies, read from package-lock.json, with what no one loads at run time
// pruned (scripts/packaging/pruning.mjs). It is assembled in a staging folder per target,
// because vsce packs a folder as it is; the JS bundle is built once for all targets.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkVsix, formatCheck } from './packaging/checkVsix.mjs';
import { keepInPackage } from './packaging/pruning.mjs';
import { TARGETS, entryFitsTarget, isPlatformPackage, packageSource } from './packaging/platformPackages.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The externals of the node bundles that are real packages (`vscode` comes from the host). */
export const RUNTIME_PACKAGES = ['@nut-tree-fork/nut-js', 'sharp', 'tesseract.js', '@tesseract.js-data/eng'];

/** Manifest fields that only matter in the repository. */
const DEV_ONLY_FIELDS = ['scripts', 'devDependencies', 'allowScripts', 'bin'];

/**
 * The lockfile paths (`node_modules/...`) of `roots` and everything they need at run time:
 * dependencies, optional and peer dependencies that are installed, resolved like Node does
 * (nested node_modules first, then up). Platform packages that npm skipped are not on disk
 * and so not included. `isInstalled` is asked with whether the dependency is a required one.
 */
export function runtimeClosure(lock, roots, isInstalled = (path) => existsSync(join(root, path))) {
  const packages = lock.packages ?? {};
  const found = new Set();
  const resolveFrom = (from, name, required = true) => {
    for (let dir = from; ; ) {
      const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (packages[candidate] && isInstalled(candidate, { required })) return candidate;
      if (!dir) return undefined;
      const up = dir.lastIndexOf('/node_modules/');
      dir = up < 0 ? '' : dir.slice(0, up);
    }
  };
  const visit = (path) => {
    if (found.has(path)) return;
    found.add(path);
    const entry = packages[path];
    const optional = { ...entry.optionalDependencies, ...entry.peerDependencies };
    for (const name of Object.keys({ ...entry.dependencies, ...optional })) {
      const target = resolveFrom(path, name, !(name in optional));
      if (target) visit(target);
      else if (!(name in optional)) throw new Error(`${path} needs ${name}, which is not installed; run npm ci`);
    }
  };
  for (const name of roots) {
    const path = resolveFrom('', name);
    if (!path) throw new Error(`${name} is not installed; run npm ci`);
    visit(path);
  }
  return [...found].sort();
}

/** The package name of a lockfile path: `node_modules/a/node_modules/@s/b` -> `@s/b`. */
function packageNameOf(lockPath) {
  return lockPath.slice(lockPath.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

function copyPackage(lockPath, source, staging, target) {
  const name = packageNameOf(lockPath);
  cpSync(source, join(staging, lockPath), {
    recursive: true,
    dereference: true,
    filter: (file) => {
      const path = relative(source, file).split(sep).join('/');
      if (path === '') return true;
      // Nested packages are entries of their own in the closure.
      if (path === 'node_modules' || path.startsWith('node_modules/')) return false;
      return keepInPackage({ name, path, isDir: statSync(file).isDirectory(), target, source: file });
    },
  });
}

/** The manifest as shipped: no scripts or dev tooling, only the unbundled dependencies. */
export function packagedManifest(manifest) {
  const shipped = { ...manifest };
  for (const field of DEV_ONLY_FIELDS) delete shipped[field];
  shipped.dependencies = Object.fromEntries(RUNTIME_PACKAGES.map((name) => [name, manifest.dependencies[name]]));
  return shipped;
}

/**
 * Links to files that are not in the package (docs/, sources) would point nowhere on the
 * Marketplace page, and vsce refuses them without a repository URL: they become plain text.
 */
/** The README's relative image paths (docs/screenshots/...), each once. */
export function readmePictures(text) {
  const paths = [...text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)|<img\s[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1] ?? match[2] ?? '');
  return [...new Set(paths.filter((path) => path && !/^([a-z]+:|#|\/)/i.test(path) && !path.includes('..')))];
}

export function packagedReadme(text, exists) {
  return text.replace(/(!?)\[([^\]]*)\]\(([^)\s]+)\)/g, (link, image, label, target) =>
    /^([a-z]+:|#)/i.test(target) || exists(target) ? link : image ? '' : label,
  );
}

/** VS Code's target for this machine's native binaries (linux-x64, alpine-arm64, ...). */
export function machineTarget() {
  const arch = { x64: 'x64', arm64: 'arm64', arm: 'armhf' }[process.arch] ?? process.arch;
  if (process.platform === 'linux' && !process.report.getReport().header.glibcVersionRuntime) return `alpine-${arch}`;
  return `${process.platform}-${arch}`;
}

function checkedTarget(target) {
  if (TARGETS.includes(target)) return target;
  throw new Error(`GAI has no package for ${target}; the targets are ${TARGETS.join(', ')} (pass --target)`);
}

/** Runs a step; `quiet` keeps its output unless it fails (stdin closed: vsce must not prompt). */
function run(command, args, cwd, quiet) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'], encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    const output = quiet ? `:\n${result.stdout}${result.stderr}` : '';
    throw new Error(`${basename(args[0] ?? command)} ${args.slice(1, 3).join(' ')} failed (exit ${result.status ?? result.signal})${output}`);
  }
}

/** The default file name of a target's package: gai-<version>-<target>.vsix. */
export function vsixName(target) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return `${manifest.name}-${manifest.version}-${target}.vsix`;
}

/** Builds one target's .vsix (default: this machine's); resolves with its path, sizes, parts and binary check. */
export async function buildPackage({ target, out, keepStaging = false, quiet = false, log = console.log, cacheDir } = {}) {
  const chosen = checkedTarget(target ?? machineTarget());
  const [result] = await buildPackages({ targets: [chosen], outFor: () => resolve(out ?? join(root, vsixName(chosen))), keepStaging, quiet, log, cacheDir });
  return result;
}

/**
 * Builds a .vsix per target into `outDir` (default the project root) as gai-<version>-<target>.vsix,
 * bundling the JS once. Each is checked before the next is built; a wrong binary fails the build.
 */
export async function buildPackages({ targets = TARGETS, outDir = root, outFor, keepStaging = false, quiet = false, log = console.log, cacheDir = join(root, 'node_modules', '.cache', 'gai-packaging') } = {}) {
  for (const target of targets) checkedTarget(target);
  const bundle = mkdtempSync(join(tmpdir(), 'gai-bundle-'));
  const results = [];
  try {
    buildBundle(bundle, quiet, log);
    for (const target of targets) {
      const vsixPath = outFor ? outFor(target) : resolve(outDir, vsixName(target));
      results.push(await packTarget({ bundle, target, vsixPath, keepStaging, quiet, log, cacheDir }));
    }
    return results;
  } finally {
    rmSync(bundle, { recursive: true, force: true });
  }
}

/** The platform-free part: production JS, media, README and its pictures, LICENSE, manifest. */
function buildBundle(bundle, quiet, log) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  log(`package: production build into ${bundle}`);
  run(process.execPath, [join(root, 'esbuild.config.mjs'), '--production', `--out-dir=${bundle}`], root, quiet);
  rmSync(join(bundle, 'dist', 'cli.js'), { force: true }); // the CLI is not part of the extension
  // ...but its MCP server is: the editor's MCP server definition runs `node dist/mcpServer.js`.
  if (!existsSync(join(bundle, 'dist', 'mcpServer.js'))) throw new Error('package: dist/mcpServer.js was not built (src/cli/mcpServerMain.ts)');
  cpSync(join(root, 'media'), join(bundle, 'media'), {
    recursive: true,
    filter: (source) => !source.startsWith(join(root, 'media', 'dist')) && !source.endsWith('.map'),
  });
  for (const file of ['LICENSE', 'CHANGELOG.md']) {
    if (existsSync(join(root, file))) cpSync(join(root, file), join(bundle, file));
  }
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  // The README's own pictures ship with it, so the extension page shows them offline.
  for (const picture of readmePictures(readme)) {
    if (!existsSync(join(root, picture))) continue;
    mkdirSync(dirname(join(bundle, picture)), { recursive: true });
    cpSync(join(root, picture), join(bundle, picture));
  }
  writeFileSync(join(bundle, 'README.md'), packagedReadme(readme, (target) => existsSync(join(bundle, target))));
  writeFileSync(join(bundle, 'package.json'), JSON.stringify(packagedManifest(manifest), null, 2) + '\n');
  // The staging folder holds only what ships; this just tells vsce so (and catches strays).
  writeFileSync(join(bundle, '.vscodeignore'), '**/*.map\n**/*.ts\n**/.DS_Store\n');
}

/**
 * The runtime closure for `target`: platform packages (sharp's @img/*, node-mac-permissions)
 * that fit the target, whether or not npm installed them here, and none that do not.
 */
export function targetClosure(lock, target) {
  const packages = lock.packages ?? {};
  return runtimeClosure(lock, RUNTIME_PACKAGES, (path, { required }) => {
    const entry = packages[path];
    if (isPlatformPackage(entry)) return entryFitsTarget(entry, target);
    // What npm skipped here as optional but a package of this target requires (node-addon-api
    // under node-mac-permissions on darwin) is fetched like the platform packages.
    return existsSync(join(root, path)) || (required && entry.optional === true);
  });
}

async function packTarget({ bundle, target, vsixPath, keepStaging, quiet, log, cacheDir }) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const staging = mkdtempSync(join(tmpdir(), `gai-package-${target}-`));
  try {
    cpSync(bundle, staging, { recursive: true });
    const closure = targetClosure(lock, target);
    log(`package ${target}: ${closure.length} runtime packages (${RUNTIME_PACKAGES.join(', ')} and their dependencies)`);
    for (const lockPath of closure) copyPackage(lockPath, packageSource(root, lockPath, lock.packages[lockPath], cacheDir, log), staging, target);

    mkdirSync(dirname(vsixPath), { recursive: true });
    rmSync(vsixPath, { force: true });
    // vsce lists what to pack with `npm ls --production` in the staging folder, which holds
    // exactly the closure; --no-dependencies would leave node_modules out altogether.
    const vsce = join(dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
    run(process.execPath, [vsce, 'package', '--out', vsixPath, '--allow-missing-repository', '--no-rewrite-relative-links', '--target', target], staging, quiet);

    const check = await checkVsix(vsixPath, target);
    if (check.problems.length) {
      rmSync(vsixPath, { force: true });
      throw new Error(`package ${target}: binaries that do not belong, so no .vsix was kept:\n${formatCheck(check)}`);
    }
    const entries = await readVsix(vsixPath);
    return {
      vsixPath,
      vsixBytes: statSync(vsixPath).size,
      unpackedBytes: entries.reduce((sum, entry) => sum + entry.size, 0),
      fileCount: entries.length,
      target,
      packages: closure.length,
      parts: partsOf(entries),
      check,
      ...(keepStaging ? { stagingDir: staging } : {}),
    };
  } finally {
    if (!keepStaging) rmSync(staging, { recursive: true, force: true });
  }
}

/** Sizes grouped by what they belong to: a package, dist/..., media/, the manifest files. */
function partsOf(entries) {
  const parts = new Map();
  for (const entry of entries) {
    const name = partName(entry.name);
    const part = parts.get(name) ?? { name, bytes: 0, compressedBytes: 0, files: 0 };
    part.bytes += entry.size;
    part.compressedBytes += entry.compressedSize;
    part.files += 1;
    parts.set(name, part);
  }
  return [...parts.values()].sort((a, b) => b.compressedBytes - a.compressedBytes);
}

function partName(entryName) {
  if (!entryName.startsWith('extension/')) return '(vsix manifest)';
  const path = entryName.slice('extension/'.length);
  const parts = path.split('/');
  if (parts[0] === 'node_modules') return parts.slice(0, parts[1]?.startsWith('@') ? 3 : 2).join('/');
  if (parts[0] === 'dist') return path;
  return parts.length > 1 ? `${parts[0]}/` : '(package.json, README, LICENSE)';
}

/** The entries of a .vsix (a zip): name, size, compressed size, unix mode. */
export async function readVsix(vsixPath) {
  const yauzl = require('yauzl');
  const zip = await new Promise((resolvePromise, reject) =>
    yauzl.open(vsixPath, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolvePromise(opened))),
  );
  const entries = [];
  try {
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      if (entry.fileName.endsWith('/')) continue;
      entries.push({ name: entry.fileName, size: entry.uncompressedSize, compressedSize: entry.compressedSize });
    }
  } finally {
    zip.close();
  }
  return entries;
}

function nextEntry(zip) {
  return new Promise((resolvePromise, reject) => {
    const onEntry = (entry) => done(() => resolvePromise(entry));
    const onEnd = () => done(() => resolvePromise(undefined));
    const onError = (error) => done(() => reject(error));
    const done = (settle) => {
      zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
      settle();
    };
    zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zip.readEntry();
  });
}

export function formatBytes(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`;
}

/** `--name value` from the arguments, or undefined; a flag without its value is refused. */
function option(args, name) {
  const index = args.indexOf(name);
  if (index < 0) return undefined;
  const value = args[index + 1];
  if (!value || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
}

async function main() {
  const args = process.argv.slice(2);
  const known = new Set(['--target', '--out', '--out-dir', '--all', '--keep-staging']);
  const unknown = args.filter((arg, index) => arg.startsWith('--') && !known.has(arg) && !['--target', '--out', '--out-dir'].includes(args[index - 1] ?? ''));
  if (unknown.length) throw new Error(`unknown option ${unknown[0]}; usage: package.mjs [--target T] [--out FILE] [--keep-staging] | --all [--out-dir DIR]`);
  const keepStaging = args.includes('--keep-staging');
  let results;
  if (args.includes('--all')) {
    if (option(args, '--target') || option(args, '--out')) throw new Error('--all builds every target into --out-dir; --target and --out are for one package');
    const outDir = option(args, '--out-dir');
    results = await buildPackages({ outDir: outDir ? resolve(outDir) : undefined, keepStaging });
  } else {
    if (option(args, '--out-dir')) throw new Error('--out-dir is for --all; one package takes --out FILE');
    results = [await buildPackage({ target: option(args, '--target'), out: option(args, '--out'), keepStaging })];
  }
  for (const result of results) printResult(result);
  if (results.length === 1) console.log(`\nInstall: code --install-extension ${relative(process.cwd(), results[0].vsixPath) || results[0].vsixPath}`);
}

function printResult(result) {
  console.log(`\n${result.vsixPath}`);
  console.log(`  ${formatBytes(result.vsixBytes)} (${formatBytes(result.unpackedBytes)} unpacked, ${result.fileCount} files, ${result.packages} packages, target ${result.target})`);
  console.log('  largest parts (compressed / unpacked):');
  for (const part of result.parts.slice(0, 10)) {
    console.log(`    ${formatBytes(part.compressedBytes).padStart(9)} / ${formatBytes(part.bytes).padStart(9)}  ${part.name}`);
  }
  console.log(formatCheck(result.check).replace(/^/gm, '  '));
  if (result.stagingDir) console.log(`  staging folder kept: ${result.stagingDir}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`package: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
