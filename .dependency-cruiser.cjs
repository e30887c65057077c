// dependency-cruiser's rules for src/ (npm run deps), made from the same ordered list of layers
// as the architecture test (test/architecture/layers.json), so the two cannot drift apart.
const { layers, webview, shared } = require('./test/architecture/layers.json');

const REST = '*';

/** A folder or file of layers.json as a path pattern (folders match what is inside them). */
function pattern(entry) {
  const escaped = entry.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return entry.endsWith('.ts') ? `^${escaped}$` : `^${escaped}/`;
}
const patterns = (entries) => entries.map(pattern);
// Also through a symlinked node_modules (a worktree sharing another checkout's install).
const packagePatterns = (names) => names.map((name) => `(^|/)node_modules/${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&')}/`);

/** One rule per layer: nothing of it imports a layer above it (or the webview, a bundle of its own). */
const layerRules = layers.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.name.replace(/ /g, '-')}`,
  severity: 'error',
  comment: `Layer ${layer.name} imports only itself and the layers below it (${layers
    .slice(0, index)
    .map((below) => below.name)
    .reverse()
    .join(', ') || 'none'}); see test/architecture/layers.json.`,
  from: { path: patterns(layer.paths) },
  to: { path: [...patterns(layers.slice(index + 1).flatMap((above) => above.paths)), ...patterns(webview.paths)] },
}));

/** Within a layer with parts: a part imports only its own part and the parts below. */
const partRules = layers.flatMap((layer) => {
  const parts = layer.parts ?? [];
  const named = (list) => list.flat().filter((entry) => entry !== REST);
  return parts.slice(0, -1).map((part, index) => {
    const higher = parts.slice(index + 1);
    // `*` is the layer less every named part; a named part less the parts nested in it.
    const from = part.includes(REST)
      ? { path: patterns(layer.paths), pathNot: patterns(named(parts)) }
      : { path: patterns(part), pathNot: patterns(named(parts.filter((other) => other !== part))) };
    const to = {
      path: patterns(higher.some((p) => p.includes(REST)) ? layer.paths : named(higher)),
      pathNot: patterns(named(parts.slice(0, index + 1))),
    };
    return {
      name: `parts-of-${layer.name}-${index + 1}`,
      severity: 'error',
      comment: `In layer ${layer.name}, [${part.join(', ')}] sits below [${higher.map((p) => p.join(', ')).join('], [')}] and may not import it.`,
      from,
      to,
    };
  });
});

const fronts = layers.filter((layer) => layer.front).flatMap((layer) => layer.paths);
const app = layers.find((layer) => layer.name === 'app').paths;
const everyPlace = [...layers.flatMap((layer) => layer.paths), ...webview.paths];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, type-only imports included: move what the files share into a file below both.',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    ...partRules,
    {
      name: 'app-only-from-fronts',
      severity: 'error',
      comment: 'Only the fronts import src/app (the assembly); below them, code gets what it needs passed in.',
      from: { pathNot: patterns([...fronts, ...app]) },
      to: { path: patterns(app) },
    },
    {
      name: 'in-a-layer',
      severity: 'error',
      comment: 'Every folder of src/ sits in a layer: add a new one to the ordered list in test/architecture/layers.json.',
      from: { path: '^src/', pathNot: patterns(everyPlace) },
      to: {},
    },
    {
      name: 'in-a-layer-imported',
      severity: 'error',
      comment: 'Every folder of src/ sits in a layer: add a new one to the ordered list in test/architecture/layers.json.',
      from: {},
      to: { path: '^src/', pathNot: patterns(everyPlace) },
    },
    {
      name: 'webview-only-shared',
      severity: 'error',
      comment: `The webview runs in a browser: it imports only ${[...webview.paths, ...webview.mayImport].join(', ')} and ${webview.packages.join(', ')}.`,
      from: { path: patterns(webview.paths) },
      to: { pathNot: [...patterns([...webview.paths, ...webview.mayImport]), ...packagePatterns(webview.packages)] },
    },
    {
      name: 'shared-only-itself',
      severity: 'error',
      comment: `${shared.paths.join(', ')} is bundled into the webview: it imports only itself and ${shared.packages.join(', ')}.`,
      from: { path: patterns(shared.paths) },
      to: { pathNot: [...patterns(shared.paths), ...packagePatterns(shared.packages)] },
    },
    {
      name: 'vscode-only-in-vscode',
      severity: 'error',
      comment: 'Only src/vscode/** and src/extension.ts import vscode.',
      from: { pathNot: patterns(['src/vscode', 'src/extension.ts']) },
      to: { path: ['^vscode$', ...packagePatterns(['@types/vscode'])] },
    },
    {
      name: 'native-only-in-platform',
      severity: 'error',
      comment: 'Native desktop packages (nut-js, tesseract.js, sharp) live only in src/platform/**.',
      from: { pathNot: patterns(['src/platform']) },
      to: { path: packagePatterns(['@nut-tree-fork', 'tesseract.js', '@tesseract.js-data', 'sharp']) },
    },
    {
      name: 'llm-sdks-only-in-providers',
      severity: 'error',
      comment: 'The LLM SDKs live only in src/model/providers/**.',
      from: { pathNot: patterns(['src/model/providers']) },
      to: { path: packagePatterns(['@anthropic-ai/sdk', 'openai']) },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A file nothing imports and that imports nothing is dead code (or a forgotten entry point).',
      from: { orphan: true, path: '^src/' },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
    // Type-only imports tie files together for a reader as much as value imports.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json', '.d.ts'],
    },
  },
};
