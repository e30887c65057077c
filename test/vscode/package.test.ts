// `npm run package` builds a .vsix that installs and runs: builds it (scripts/package.mjs),
// checks what is in it and what is not, installs it with the VS Code server's own
// `--install-extension`, then runs the installed extension in a real VS Code extension host
// (scripts/vscodeHost/), where its self-check must load libnut and sharp and read text with
// tesseract.js, all from the installed folder.
// Run alone: node --import=tsx node_modules/mocha/bin/mocha.js test/vscode/package.test.ts --timeout 600000
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SetupReport } from '../../src/platform/setupCheck';

const ROOT = resolve(__dirname, '../..');
const RUNNER = join(ROOT, 'test/vscode/packaged/index.cjs');

type PackageScript = typeof import('../../scripts/package.mjs');
type Launcher = typeof import('../../scripts/vscodeHost/run.mjs');
type Installer = typeof import('../../scripts/vscodeHost/install.mjs');

interface HostReport {
  passes: { title: string }[];
  failures: { title: string; error: string }[];
  metrics: { setup?: SetupReport };
}

describe('the packaged extension (.vsix)', function () {
  this.timeout(10 * 60_000);
  let work: string;
  let script: PackageScript;
  let built: Awaited<ReturnType<PackageScript['buildPackage']>>;
  let names: string[];

  before(async () => {
    script = (await import('../../scripts/package.mjs')) as PackageScript;
    work = mkdtempSync(join(tmpdir(), 'gai-package-test-'));
    built = await script.buildPackage({ out: join(work, 'gai.vsix'), quiet: true, keepStaging: true, log: () => undefined });
    names = (await script.readVsix(built.vsixPath)).map((entry) => entry.name);
    console.log(`      .vsix: ${script.formatBytes(built.vsixBytes)}, ${script.formatBytes(built.unpackedBytes)} unpacked, ${built.fileCount} files (target ${built.target ?? 'universal'})`);
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
    if (built?.stagingDir) rmSync(built.stagingDir, { recursive: true, force: true });
  });

  it('contains the bundles, the native modules and the OCR worker, cores and language data', () => {
    const expected: Array<[string, RegExp]> = [
      ['the extension bundle', /^extension\/dist\/extension\.js$/],
      ['the agent bundle, required on first use', /^extension\/dist\/agentFactory\.js$/],
      ['the MCP server (`gai mcp` without the CLI), run by the MCP server definition', /^extension\/dist\/mcpServer\.js$/],
      ['the webview bundle', /^extension\/media\/dist\/webview\.js$/],
      ['the brain view bundle', /^extension\/media\/dist\/brainView\.js$/],
      ['the picture panel bundle', /^extension\/media\/dist\/pictureView\.js$/],
      ['the live view bundle', /^extension\/media\/dist\/liveView\.js$/],
      ['the live view stylesheet', /^extension\/media\/liveView\.css$/],
      ['the codicon font', /^extension\/media\/dist\/codicons\/codicon\.ttf$/],
      ['the manifest', /^extension\/package\.json$/],
      ['the extension icon', /^extension\/media\/icon\.png$/],
      ['the licence', /^extension\/LICENSE(\.txt)?$/],
      ['nut-js', /^extension\/node_modules\/@nut-tree-fork\/nut-js\/package\.json$/],
      ['the libnut addon', new RegExp(`^extension/node_modules/@nut-tree-fork/libnut-${process.platform}/build/Release/libnut\\.node$`)],
      ["sharp's addon", /^extension\/node_modules\/@img\/sharp-[^/]+\/lib\/sharp-[^/]+\.node$/],
      ['libvips', /^extension\/node_modules\/@img\/sharp-libvips-[^/]+\/lib\/libvips-cpp\.(so[.\d]*|dylib|dll)/],
      ["tesseract.js's node worker", /^extension\/node_modules\/tesseract\.js\/src\/worker-script\/node\/index\.js$/],
      ['the tesseract wasm cores', /^extension\/node_modules\/tesseract\.js-core\/tesseract-core[a-z-]*\.wasm$/],
      ['the English data', /^extension\/node_modules\/@tesseract\.js-data\/eng\/4\.0\.0_best_int\/eng\.traineddata(\.gz)?$/],
    ];
    const missing = expected.filter(([, pattern]) => !names.some((name) => pattern.test(name))).map(([what]) => what);
    assert.deepEqual(missing, []);
  });

  it("ships the README's pictures beside it, with the README's links to them intact", () => {
    const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
    const pictures = script.readmePictures(readme);
    assert.ok(pictures.length >= 3, 'the README shows the extension');
    assert.deepEqual(pictures.filter((picture) => !names.includes(`extension/${picture}`)), []);
    const shipped = readFileSync(join(built.stagingDir ?? '', 'README.md'), 'utf8');
    for (const picture of pictures) assert.ok(shipped.includes(`](${picture})`) || shipped.includes(`src="${picture}"`), `${picture} is still linked`);
    assert.ok(pictures.includes('docs/screenshots/welcome.png') && pictures.includes('media/icon.png'), 'HTML <img> pictures count too');
  });

  it('leaves out sources, tests, sourcemaps, the CLI and everything esbuild bundled', () => {
    const unwanted = [
      /^extension\/(src|test|bench|scripts|\.scratch|\.vscode)\//,
      // docs/ ships only the README's own pictures (the extension page shows them offline).
      /^extension\/docs\/(?!screenshots\/[\w-]+\.png$)/,
      /\.map$/,
      /\.d\.[cm]?ts$/,
      /^extension\/dist\/cli\.js$/,
      /^extension\/node_modules\/(@anthropic-ai|openai|commander|@sinclair|markdown-it|@vscode|typescript|esbuild|mocha|tsx)\//,
      /^extension\/node_modules\/@tesseract\.js-data\/eng\/4\.0\.0\//,
    ];
    const found = names.filter((name) => unwanted.some((pattern) => pattern.test(name)));
    assert.deepEqual(found.slice(0, 20), []);
    const manifest = JSON.parse(readFileSync(join(built.stagingDir!, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.scripts, undefined);
    assert.equal(manifest.devDependencies, undefined);
    assert.deepEqual(Object.keys(manifest.dependencies as object).sort(), [...script.RUNTIME_PACKAGES].sort());
  });

  it('installs and runs: in a real extension host its self-check finds libnut and sharp and reads the OCR sample, and the agent bundle loads', async () => {
    const launcher = (await import('../../scripts/vscodeHost/run.mjs')) as Launcher;
    const extensionPath = installWithVscode(((await import('../../scripts/vscodeHost/install.mjs')) as Installer).hostPaths(), built.vsixPath, work);
    const reportPath = join(work, 'report.json');
    const result = await launcher.runInHost({
      extensionPath,
      testsPath: RUNNER,
      timeoutMs: 240_000,
      env: { GAI_HOST_REPORT: reportPath, GAI_PACKAGED_EXTENSION: extensionPath, ANTHROPIC_API_KEY: '' },
    });
    let report: HostReport;
    try {
      report = JSON.parse(readFileSync(reportPath, 'utf8')) as HostReport;
    } catch (error) {
      assert.fail(`no report at ${reportPath} (${String(error)}); host log:\n${result.logs.slice(-80).join('\n')}`);
    }
    assert.deepEqual(report.failures, [], `host log:\n${result.logs.slice(-80).join('\n')}`);
    assert.equal(result.exitCode, 0);
    assert.equal(report.passes.length, 4, report.passes.map((test) => test.title).join(' | '));
    const setup = report.metrics.setup;
    assert.ok(setup, 'the self-check reported');
    console.log(`      self-check: libnut ${Math.round(setup.nut.ms)} ms, sharp ${Math.round(setup.sharp.ms)} ms, OCR read "${setup.ocr.text}" in ${Math.round(setup.ocr.ms)} ms; display ${setup.display.detail}`);
    assert.deepEqual(launcher.livingInGroup(result.serverPid), [], 'processes of the VS Code server outlived the run');
  });
});

/** `code --install-extension`, done by the VS Code server itself; returns the installed folder. */
function installWithVscode(paths: { node: string; serverMain: string }, vsix: string, work: string): string {
  const extensions = join(work, 'extensions');
  const home = join(work, 'home');
  mkdirSync(home, { recursive: true });
  const installed = spawnSync(
    paths.node,
    [paths.serverMain, '--install-extension', vsix, '--extensions-dir', extensions, '--server-data-dir', join(work, 'server-data'), '--accept-server-license-terms'],
    { encoding: 'utf8', timeout: 120_000, env: { ...process.env, HOME: home } },
  );
  assert.equal(installed.status, 0, `--install-extension failed:\n${installed.stdout}${installed.stderr}`);
  assert.match(installed.stdout, /successfully installed/);
  const folder = readdirSync(extensions).find((name) => name.startsWith('gai.gai-'));
  assert.ok(folder, `no gai.gai-* folder in ${extensions}: ${readdirSync(extensions).join(', ')}`);
  return join(extensions, folder);
}
