// `npm run package`: builds gai-<version>.vsix with @vscode/vsce.
// Usage: node scripts/package.mjs [--out FILE] [--keep-staging]
//
// esbuild bundles everything except the packages that find native binaries, a worker script,
// wasm or language data by path next to themselves (esbuild.config.mjs: NODE_EXTERNALS). So the
// .vsix carries a production build plus node_modules with exactly those packages and their
// production dependencies, read from package-lock.json, with what no one loads at run time
// pruned. It is assembled in a staging folder, because vsce packs a folder as it is.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The externals of the node bundles that are real packages (`vscode` comes from the host). */
export const RUNTIME_PACKAGES = ['@nut-tree-fork/nut-js', 'sharp', 'tesseract.js', '@tesseract.js-data/eng'];

/** Manifest fields that only matter in the repository. */
const DEV_ONLY_FIELDS = ['scripts', 'devDependencies', 'allowScripts', 'bin'];

const LICENSE_FILE = /^(licen[cs]e|notice|copying)/i;
/** Folders no package loads at run time. */
const NEVER_LOADED_DIR = /(^|\/)(test|tests|__tests__|example|examples|docs|\.github)(\/|$)/;

/**
 * Package-specific pruning: (path inside the package, is it a folder) => keep it? Each rule
 * removes what GAI provably never loads; the packaged-extension test exercises what is left.
 */
const PACKAGE_RULES = [
  {
    // The *.wasm.js files embed the wasm as base64 for browsers; Node loads *.js + *.wasm.
    // All six cores stay: getCore picks relaxed SIMD, SIMD or plain by CPU, and tesseract.js
    // 7.0's node getCore is handed a boolean where it tests for an OEM, so despite
    // OEM.LSTM_ONLY it loads the full (non-lstm) cores (the packaged-extension test caught it).
    match: (name) => name === 'tesseract.js-core',
    keep: (path) => !path.endsWith('.wasm.js'),
  },
  {
    // tesseractJsOcr.ts reads the 4.0.0_best_int data; 4.0.0 is the larger, slower model.
    match: (name) => name.startsWith('@tesseract.js-data/'),
    keep: (path) => !path.startsWith('4.0.0/') && path !== '4.0.0',
  },
  // Browser bundles: Node loads tesseract.js from src/ and jimp from dist/.
  { match: (name) => name === 'tesseract.js', keep: (path) => !/^dist(\/|$)/.test(path) },
  { match: (name) => name === 'jimp', keep: (path) => !/^browser(\/|$)/.test(path) },
  // C++ sources for building from source; the prebuilt addon comes from @img/sharp-<platform>.
  { match: (name) => name === 'sharp', keep: (path) => !/^src(\/|$)/.test(path) },
  {
    // libnut requires only the running platform's package; the others stay as bare manifests
    // because npm (and so vsce) wants every declared dependency present.
    match: (name) => /^@nut-tree-fork\/libnut-(darwin|linux|win32)$/.test(name),
    keep: (path, isDir, name) => {
      if (!name.endsWith(`-${process.platform}`)) return path === 'package.json' || LICENSE_FILE.test(path);
      // Of the build folder only the addon itself (the rest is the ninja build's state).
      return !path.startsWith('build') || isDir || /^build\/Release\/[^/]+\.node$/.test(path);
    },
  },
  // Only tesseract.js's browser worker requires zlibjs (Node's own zlib serves the node one);
  // of its many builds keep the package's main.
  { match: (name) => name === 'zlibjs', keep: (path) => path === 'package.json' || path === 'bin' || path === 'bin/node-zlib.js' || LICENSE_FILE.test(path) },
  // clipboardy's Windows .exe fallbacks are useless elsewhere.
  { match: (name) => name === 'clipboardy', keep: (path) => process.platform === 'win32' || !/^fallbacks\/windows(\/|$)/.test(path) },
];

/**
 * The lockfile paths (`node_modules/...`) of `roots` and everything they need at run time:
 * dependencies, optional and peer dependencies that are installed, resolved like Node does
 * (nested node_modules first, then up). Platform packages that npm skipped are not on disk
 * and so not included.
 */
export function runtimeClosure(lock, roots, isInstalled = (path) => existsSync(join(root, path))) {
  const packages = lock.packages ?? {};
  const found = new Set();
  const resolveFrom = (from, name) => {
    for (let dir = from; ; ) {
      const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (packages[candidate] && isInstalled(candidate)) return candidate;
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
      const target = resolveFrom(path, name);
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

function keepInPackage(name, path, isDir) {
  const file = basename(path);
  if (!isDir && (/\.map$/.test(file) || /\.d\.[cm]?ts$/.test(file))) return false;
  if (!isDir && /\.(md|markdown)$/i.test(file) && !LICENSE_FILE.test(file)) return false;
  if (NEVER_LOADED_DIR.test(path)) return false;
  return PACKAGE_RULES.every((rule) => !rule.match(name) || rule.keep(path, isDir, name));
}

function copyPackage(lockPath, staging) {
  const from = join(root, lockPath);
  const name = packageNameOf(lockPath);
  cpSync(from, join(staging, lockPath), {
    recursive: true,
    dereference: true,
    filter: (source) => {
      const path = relative(from, source).split(sep).join('/');
      if (path === '') return true;
      // Nested packages are entries of their own in the closure.
      if (path === 'node_modules' || path.startsWith('node_modules/')) return false;
      return keepInPackage(name, path, statSync(source).isDirectory());
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

/** VS Code's target for this machine's native binaries, or undefined for a universal package. */
function vsceTarget() {
  const arch = { x64: 'x64', arm64: 'arm64', arm: 'armhf' }[process.arch];
  if (!arch || !['linux', 'darwin', 'win32'].includes(process.platform)) return undefined;
  if (process.platform === 'linux' && !process.report.getReport().header.glibcVersionRuntime) return `alpine-${arch}`;
  return `${process.platform}-${arch}`;
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

/** Builds the .vsix; resolves with its path, sizes and biggest parts. */
export async function buildPackage({ out, keepStaging = false, quiet = false, log = console.log } = {}) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const vsixPath = resolve(out ?? join(root, `${manifest.name}-${manifest.version}.vsix`));
  const staging = mkdtempSync(join(tmpdir(), 'gai-package-'));
  try {
    log(`package: production build into ${staging}`);
    run(process.execPath, [join(root, 'esbuild.config.mjs'), '--production', `--out-dir=${staging}`], root, quiet);
    rmSync(join(staging, 'dist', 'cli.js'), { force: true }); // the CLI is not part of the extension
    // ...but its MCP server is: the editor's MCP server definition runs `node dist/mcpServer.js`.
    if (!existsSync(join(staging, 'dist', 'mcpServer.js'))) throw new Error('package: dist/mcpServer.js was not built (src/cli/mcpServerMain.ts)');
    cpSync(join(root, 'media'), join(staging, 'media'), {
      recursive: true,
      filter: (source) => !source.startsWith(join(root, 'media', 'dist')) && !source.endsWith('.map'),
    });
    for (const file of ['LICENSE', 'CHANGELOG.md']) {
      if (existsSync(join(root, file))) cpSync(join(root, file), join(staging, file));
    }
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    // The README's own pictures ship with it, so the extension page shows them offline.
    for (const picture of readmePictures(readme)) {
      if (!existsSync(join(root, picture))) continue;
      mkdirSync(dirname(join(staging, picture)), { recursive: true });
      cpSync(join(root, picture), join(staging, picture));
    }
    writeFileSync(join(staging, 'README.md'), packagedReadme(readme, (target) => existsSync(join(staging, target))));
    writeFileSync(join(staging, 'package.json'), JSON.stringify(packagedManifest(manifest), null, 2) + '\n');
    // The staging folder holds only what ships; this just tells vsce so (and catches strays).
    writeFileSync(join(staging, '.vscodeignore'), '**/*.map\n**/*.ts\n**/.DS_Store\n');

    const closure = runtimeClosure(lock, RUNTIME_PACKAGES);
    log(`package: ${closure.length} runtime packages (${RUNTIME_PACKAGES.join(', ')} and their dependencies)`);
    for (const lockPath of closure) copyPackage(lockPath, staging);

    const target = vsceTarget();
    mkdirSync(dirname(vsixPath), { recursive: true });
    rmSync(vsixPath, { force: true });
    // vsce lists what to pack with `npm ls --production` in the staging folder, which holds
    // exactly the closure; --no-dependencies would leave node_modules out altogether.
    const vsce = join(dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
    run(process.execPath, [vsce, 'package', '--out', vsixPath, '--allow-missing-repository', '--no-rewrite-relative-links', ...(target ? ['--target', target] : [])], staging, quiet);

    const entries = await readVsix(vsixPath);
    const unpackedBytes = entries.reduce((sum, entry) => sum + entry.size, 0);
    const result = {
      vsixPath,
      vsixBytes: statSync(vsixPath).size,
      unpackedBytes,
      fileCount: entries.length,
      target,
      packages: closure.length,
      parts: partsOf(entries),
      ...(keepStaging ? { stagingDir: staging } : {}),
    };
    return result;
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

async function main() {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  const result = await buildPackage({ out: outIndex >= 0 ? args[outIndex + 1] : undefined, keepStaging: args.includes('--keep-staging') });
  console.log(`\n${result.vsixPath}`);
  console.log(`  ${formatBytes(result.vsixBytes)} (${formatBytes(result.unpackedBytes)} unpacked, ${result.fileCount} files, ${result.packages} packages, target ${result.target ?? 'universal'})`);
  console.log('  largest parts (compressed / unpacked):');
  for (const part of result.parts.slice(0, 10)) {
    console.log(`    ${formatBytes(part.compressedBytes).padStart(9)} / ${formatBytes(part.bytes).padStart(9)}  ${part.name}`);
  }
  if (result.stagingDir) console.log(`  staging folder kept: ${result.stagingDir}`);
  console.log(`\nInstall: code --install-extension ${relative(process.cwd(), result.vsixPath) || result.vsixPath}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`package: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
