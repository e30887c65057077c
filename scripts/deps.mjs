// `npm run deps`: checks the dependency rules of src/ with dependency-cruiser
// (.dependency-cruiser.cjs, made from test/architecture/layers.json) and prints the folder graph,
// layer by layer from the bottom. Exits non-zero on any violation.
// Usage: node scripts/deps.mjs [--check]   (--check: only the rules, no graph; what npm test runs)
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, format } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WIDTH = 100;

async function main() {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--check');
  if (unknown.length > 0) {
    console.error(`deps: unknown argument ${unknown[0]}\nusage: node scripts/deps.mjs [--check]`);
    process.exit(2);
  }
  process.chdir(root); // the rules' paths are relative to the repository root
  const startedAt = Date.now();
  const options = await extractDepcruiseOptions(join(root, '.dependency-cruiser.cjs'));
  const tsConfig = extractTSConfig(join(root, 'tsconfig.json'));
  const { output } = await cruise(['src'], options, {}, { tsConfig });
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);

  if (!args.includes('--check')) console.log(folderGraph(output.modules));
  const { summary } = output;
  const errors = summary.error + summary.warn;
  if (errors > 0) {
    const report = await format(output, { outputType: 'err-long' });
    console.log(report.output);
    console.log('deps: the rules and why are in .dependency-cruiser.cjs; the order of the layers in test/architecture/layers.json');
  } else {
    console.log(
      `✔ dependency rules hold: ${summary.totalCruised} modules, ${summary.totalDependenciesCruised} imports, ` +
        `${summary.ruleSetUsed.forbidden.length} rules (${seconds} s)`,
    );
  }
  process.exitCode = errors > 0 ? 1 : 0;
}

/** Each folder of src/ with the folders and packages it imports, grouped by layer, bottom first. */
function folderGraph(modules) {
  const { layers, webview } = JSON.parse(readFileSync(join(root, 'test/architecture/layers.json'), 'utf8'));
  const uses = new Map();
  for (const module of modules) {
    if (!module.source.startsWith('src/')) continue;
    // A layer that is one file (src/extension.ts) is its own node.
    const from = layers.some((layer) => layer.paths.includes(module.source)) ? module.source : dirname(module.source);
    const targets = uses.get(from) ?? { folders: new Set(), packages: new Set() };
    uses.set(from, targets);
    for (const dependency of module.dependencies) {
      const to = dependency.resolved;
      if (to.startsWith('src/')) {
        if (dirname(to) !== from) targets.folders.add(dirname(to));
      } else if (dependency.dependencyTypes.some((type) => type.startsWith('npm'))) {
        targets.packages.add(packageOf(dependency.module));
      }
    }
  }
  const lines = [
    'src/, bottom to top: a layer imports only itself and the layers listed before it.',
    'Each folder is followed by what it imports: folders (without src/), then npm packages.',
    '',
  ];
  const placed = new Set();
  // A folder with sub-folders in the graph stands for its own files: `src/desktop/*.ts`.
  const label = (folder) => ([...uses.keys()].some((other) => other.startsWith(`${folder}/`)) ? `${folder}/*.ts` : folder);
  const area = (title, paths, what, parts = []) => {
    lines.push(`${title.padEnd(22)}${paths.join(', ')}`, ...fold('    ', what.split(' ')));
    const folders = [...uses.keys()].filter((folder) => paths.some((path) => isUnder(folder, path)) && !placed.has(folder));
    folders.sort((a, b) => partIndex(a, parts) - partIndex(b, parts) || a.localeCompare(b));
    for (const folder of folders) {
      placed.add(folder);
      const { folders: to, packages } = uses.get(folder);
      const names = [...to].sort().map((path) => label(path).slice('src/'.length));
      if (packages.size > 0) names.push(...[...packages].sort().map((name, index) => (index === 0 ? `npm: ${name}` : name)));
      lines.push(...fold(`      ${label(folder).padEnd(28)} → `, commas(names.length > 0 ? names : ['(nothing)'])));
    }
    lines.push('');
  };
  layers.forEach((layer, index) => area(`${String(index + 1).padStart(2)}. ${layer.name}`, layer.paths, layer.what, layer.parts));
  area('    webview (apart)', webview.paths, webview.what);
  return lines.join('\n');
}

/** The part a folder sits in: the part naming it or a folder above it, else `*` (the rest). */
function partIndex(folder, parts) {
  const found = parts.findIndex((part) => part.some((path) => path !== '*' && isUnder(folder, path)));
  return found !== -1 ? found : parts.findIndex((part) => part.includes('*'));
}

function isUnder(path, dir) {
  return path === dir || path.startsWith(`${dir}/`);
}

function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function commas(names) {
  return names.map((name, index) => (index < names.length - 1 ? `${name},` : name));
}

/** `head` and the words folded at WIDTH, continuation lines under the first word. */
function fold(head, words) {
  const lines = [];
  let line = head;
  for (const word of words) {
    if (line.length + word.length > WIDTH && line.length > head.length) {
      lines.push(line.trimEnd());
      line = ' '.repeat(head.length);
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines;
}

await main();
