// Bundles the CLI, the VS Code extension host entry and the webview script.
// Usage: node esbuild.config.mjs [--watch] [--production] [--out-dir=DIR]
//   --production: minified, no sourcemaps (what `npm run package` ships).
//   --out-dir=DIR: write the bundles under DIR instead of the repository (the package's staging
//   folder), so a package build never replaces the dev bundles and their sourcemaps.
import { chmodSync, copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = dirname(fileURLToPath(import.meta.url));
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const outRoot = resolve(root, process.argv.find((arg) => arg.startsWith('--out-dir='))?.slice('--out-dir='.length) ?? '.');

/**
 * An import of the agent's source (src/vscode/gaiParts.ts), from wherever in the extension, stays a
 * require of the sibling bundle. Matched by the file it resolves to, so moving the importer
 * cannot silently inline the agent (it did once: the extension bundle grew from 0.6 to 3.9 MB).
 */
const LAZY_AGENT = { source: 'src/vscode/gaiParts.ts', path: './agentFactory.js' };
/** What the extension's activation bundle must never contain (they belong in the lazy bundle). */
const ACTIVATION_FORBIDDEN = [/node_modules\/@anthropic-ai\//, /node_modules\/openai\//, /node_modules\/@modelcontextprotocol\//, /^src\/model\/providers\//];

// Every bundle in one list. `optional` entries are built only when their source exists, so
// the VS Code and webview parts can land later without touching this file.
const ENTRIES = [
  { name: 'cli', in: 'src/cli/main.ts', out: 'dist/cli.js', platform: 'node', format: 'cjs', executable: true },
  // The extension is two bundles: what activation loads (small), and the agent, LLM SDKs and
  // desktop tools, required on first use. One file would make VS Code parse ~2 MB at start-up.
  { name: 'extension', in: 'src/extension.ts', out: 'dist/extension.js', platform: 'node', format: 'cjs', optional: true, lazy: LAZY_AGENT },
  { name: 'extension-agent', in: 'src/vscode/gaiParts.ts', out: 'dist/agentFactory.js', platform: 'node', format: 'cjs', optional: true },
  // `gai mcp` without the CLI file: the .vsix ships no dist/cli.js, and the MCP server definition
  // provider runs `node dist/mcpServer.js` with the same flags.
  { name: 'mcp-server', in: 'src/cli/mcpServerMain.ts', out: 'dist/mcpServer.js', platform: 'node', format: 'cjs', optional: true },
  {
    name: 'webview',
    in: 'src/webview/main.ts',
    out: 'media/dist/webview.js',
    platform: 'browser',
    format: 'iife',
    optional: true,
    // The codicon font for the chat (linked by src/vscode/chat/chatHtmlShell.ts), copied from its package.
    assets: [
      ['node_modules/@vscode/codicons/dist/codicon.css', 'media/dist/codicons/codicon.css'],
      ['node_modules/@vscode/codicons/dist/codicon.ttf', 'media/dist/codicons/codicon.ttf'],
    ],
  },
  // The GAI Brain panel (src/vscode/brain/brainPanel.ts); it links the codicons the chat entry copies.
  { name: 'brain-view', in: 'src/webview/brain/main.ts', out: 'media/dist/brainView.js', platform: 'browser', format: 'iife', optional: true },
  // The picture panel (src/vscode/chat/picturePanel.ts): one screen picture full size, zoom and pan.
  { name: 'picture-view', in: 'src/webview/picture/main.ts', out: 'media/dist/pictureView.js', platform: 'browser', format: 'iife', optional: true },
  // The live view of GAI's own desktop (src/vscode/liveView/liveViewPanel.ts): frames, Take over, Hand back.
  { name: 'live-view', in: 'src/webview/liveView/main.ts', out: 'media/dist/liveView.js', platform: 'browser', format: 'iife', optional: true },
];

// Kept out of node bundles and required at run time instead:
// - `vscode` is provided by the extension host, there is no real package to bundle.
// - nut-tree and sharp ship native .node binaries, and tesseract.js starts a worker script and
//   loads its wasm core and language data by path; all of these are looked up on disk relative
//   to their own package, so inlining them would break those paths.
const NODE_EXTERNALS = ['vscode', '@nut-tree-fork/*', 'sharp', 'tesseract.js', '@tesseract.js-data/*'];

const TARGETS = { node: 'node20', browser: 'es2022' };

/** The CLI is run directly as `gai`, so its file needs the exec bit after every write. */
function makeExecutable(entry) {
  return {
    name: 'make-executable',
    setup(build) {
      build.onEnd((result) => {
        const outfile = resolve(outRoot, entry.out);
        if (result.errors.length === 0 && existsSync(outfile)) chmodSync(outfile, 0o755);
      });
    },
  };
}

/** Leaves one import as a run-time require of another bundle next to this one. */
function lazyBundle(entry) {
  return {
    name: 'lazy-bundle',
    setup(build) {
      const target = resolve(root, entry.lazy.source).replace(/\.ts$/, '');
      build.onResolve({ filter: /^\./ }, (args) => {
        const resolved = resolve(args.resolveDir, args.path).replace(/\.(ts|js)$/, '');
        return resolved === target ? { path: entry.lazy.path, external: true } : undefined;
      });
      build.onEnd((result) => {
        const inputs = Object.keys(result.metafile?.inputs ?? {});
        const leaked = inputs.filter((input) => ACTIVATION_FORBIDDEN.some((pattern) => pattern.test(input)));
        if (leaked.length > 0) {
          throw new Error(`${entry.out} must load the agent lazily, but it bundles ${leaked.slice(0, 3).join(', ')}${leaked.length > 3 ? ` and ${leaked.length - 3} more` : ''}`);
        }
      });
    },
  };
}

/** Copies an entry's static files next to its bundle after every successful build. */
function copyAssets(entry) {
  return {
    name: 'copy-assets',
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length > 0) return;
        for (const [from, to] of entry.assets) {
          mkdirSync(dirname(resolve(outRoot, to)), { recursive: true });
          copyFileSync(resolve(root, from), resolve(outRoot, to));
        }
      });
    },
  };
}

function optionsFor(entry) {
  const isNode = entry.platform === 'node';
  return {
    absWorkingDir: root,
    entryPoints: [entry.in],
    outfile: resolve(outRoot, entry.out),
    bundle: true,
    platform: entry.platform,
    format: entry.format,
    target: TARGETS[entry.platform],
    sourcemap: !production,
    minify: production,
    // Browser bundles must not silently defer a Node module to a require() that cannot work.
    external: isNode ? NODE_EXTERNALS : [],
    // A plain require for the lazy bundle: the extension host's loader hooks (e.g. `vscode`) are
    // on require, not on Node's ESM loader that import() would use.
    supported: entry.lazy ? { 'dynamic-import': false } : undefined,
    metafile: Boolean(entry.lazy),
    banner: entry.executable ? { js: '#!/usr/bin/env node' } : undefined,
    // 'info' also prints the "[watch] build started/finished" lines that the watch task's
    // problem matcher in .vscode/tasks.json waits for.
    logLevel: 'info',
    plugins: [...(entry.executable ? [makeExecutable(entry)] : []), ...(entry.assets ? [copyAssets(entry)] : []), ...(entry.lazy ? [lazyBundle(entry)] : [])],
  };
}

function selectedEntries() {
  const selected = [];
  for (const entry of ENTRIES) {
    if (existsSync(resolve(root, entry.in))) selected.push(entry);
    else if (entry.optional) console.log(`esbuild: skipping ${entry.name} (${entry.in} does not exist yet)`);
    else throw new Error(`esbuild: required entry ${entry.in} is missing`);
  }
  return selected;
}

async function main() {
  const entries = selectedEntries();
  if (watch) {
    const contexts = await Promise.all(entries.map((entry) => esbuild.context(optionsFor(entry))));
    await Promise.all(contexts.map((context) => context.watch()));
    return;
  }
  await Promise.all(entries.map((entry) => esbuild.build(optionsFor(entry))));
}

main().catch((error) => {
  // esbuild has already printed the diagnostics of failed builds.
  if (!(error && Array.isArray(error.errors))) console.error(error instanceof Error ? error.message : error);
  // ...except what an on-end check threw, which esbuild reports only in the failure it returns.
  else for (const failure of error.errors.filter((e) => e.pluginName === 'lazy-bundle')) console.error(`esbuild: ${failure.text}`);
  process.exit(1);
});
