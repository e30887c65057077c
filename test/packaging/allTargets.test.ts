// `node scripts/package.mjs --all --out-dir DIR` (the release script's contract) builds every
// target's .vsix here, each carrying its own platform's native parts and no other's, each
// marked with its VS Code target. The JS bundle is built once; other platforms' binaries come
// from the registry cache (node_modules/.cache/gai-packaging; a cold cache fetches ~10
// tarballs with npm pack first).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/package.mjs');

type Checker = typeof import('../../scripts/packaging/checkVsix.mjs');

/** The native files each target must carry (package-relative paths, version numbers elided). */
const SHARP = (target: string): RegExp[] => [new RegExp(`^node_modules/@img/sharp-${target}/lib/sharp-${target}-[\\d.]+\\.node$`)];
const EXPECTED: Record<string, RegExp[]> = {
  'linux-x64': [...SHARP('linux-x64'), /^node_modules\/@img\/sharp-libvips-linux-x64\/lib\/libvips-cpp\.so\.[\d.]+$/, /^node_modules\/@nut-tree-fork\/libnut-linux\/build\/Release\/libnut\.node$/, /^node_modules\/clipboardy\/fallbacks\/linux\/xsel$/],
  'linux-arm64': [...SHARP('linux-arm64'), /^node_modules\/@img\/sharp-libvips-linux-arm64\/lib\/libvips-cpp\.so\.[\d.]+$/],
  'win32-x64': [...SHARP('win32-x64'), /^node_modules\/@img\/sharp-win32-x64\/lib\/libvips-42\.dll$/, /^node_modules\/@img\/sharp-win32-x64\/lib\/libvips-cpp-[\d.]+\.dll$/, /^node_modules\/@nut-tree-fork\/libnut-win32\/build\/Release\/libnut\.node$/, /^node_modules\/@nut-tree-fork\/libnut-win32\/build\/Release\/[^/]+\.dll$/, /^node_modules\/clipboardy\/fallbacks\/windows\/clipboard_x86_64\.exe$/],
  'win32-arm64': [...SHARP('win32-arm64'), /^node_modules\/@img\/sharp-win32-arm64\/lib\/libvips-42\.dll$/, /^node_modules\/@img\/sharp-win32-arm64\/lib\/libvips-cpp-[\d.]+\.dll$/],
  'darwin-x64': [...SHARP('darwin-x64'), /^node_modules\/@img\/sharp-libvips-darwin-x64\/lib\/libvips-cpp\.[\d.]+\.dylib$/, /^node_modules\/@nut-tree-fork\/libnut-darwin\/build\/Release\/libnut\.node$/, /^node_modules\/@nut-tree-fork\/node-mac-permissions\/build\/Release\/permissions\.node$/],
  'darwin-arm64': [...SHARP('darwin-arm64'), /^node_modules\/@img\/sharp-libvips-darwin-arm64\/lib\/libvips-cpp\.[\d.]+\.dylib$/, /^node_modules\/@nut-tree-fork\/libnut-darwin\/build\/Release\/libnut\.node$/, /^node_modules\/@nut-tree-fork\/node-mac-permissions\/build\/Release\/permissions\.node$/],
};

describe('packaging: a .vsix for every target', function () {
  this.timeout(4 * 60_000);
  let out: string;
  let checker: Checker;
  let version: string;

  before(async function () {
    checker = (await import('../../scripts/packaging/checkVsix.mjs')) as Checker;
    version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    out = mkdtempSync(join(tmpdir(), 'gai-all-targets-'));
    const started = Date.now();
    const built = spawnSync(process.execPath, [SCRIPT, '--all', '--out-dir', out], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.equal(built.status, 0, `package.mjs --all failed:\n${built.stdout.slice(-3000)}\n${built.stderr}`);
    console.log(`      all six targets built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  after(() => rmSync(out, { recursive: true, force: true }));

  it('writes gai-<version>-<target>.vsix for the six targets and nothing else', () => {
    assert.deepEqual(readdirSync(out).sort(), Object.keys(EXPECTED).map((target) => `gai-${version}-${target}.vsix`).sort());
  });

  for (const target of Object.keys(EXPECTED)) {
    it(`${target}: its own native parts, each built for ${target}, and the platform-free OCR`, async () => {
      const vsix = join(out, `gai-${version}-${target}.vsix`);
      const check = await checker.checkVsix(vsix, target);
      assert.deepEqual(check.problems, []);
      const names = check.files.map((file) => file.name);
      for (const pattern of EXPECTED[target] ?? []) assert.ok(names.some((name) => pattern.test(name)), `${target} lacks ${pattern}; has ${names.join(', ')}`);
      for (const name of names) assert.ok((EXPECTED[target] ?? []).some((pattern) => pattern.test(name)), `${target} carries the unexpected ${name}`);
      const manifest = (await checker.readVsixFile(vsix, 'extension.vsixmanifest'))?.toString('utf8') ?? '';
      assert.match(manifest, new RegExp(`TargetPlatform="${target}"`));
      // tesseract.js's wasm cores and the English data are the same everywhere.
      const data = await checker.readVsixFile(vsix, 'extension/node_modules/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz');
      assert.ok(data && data.length > 1_000_000, 'English OCR data ships');
    });
  }

  it("the checker finds another platform's binaries in a package", async () => {
    const check = await checker.checkVsix(join(out, `gai-${version}-win32-x64.vsix`), 'linux-x64');
    assert.ok(check.problems.length >= 3);
    assert.ok(check.problems.includes('node_modules/@nut-tree-fork/libnut-win32/build/Release/libnut.node: PE x64 is a win32 binary, not linux'), check.problems.join('\n'));
  });

  it('refuses a target it has no package for, in one line', () => {
    const refused = spawnSync(process.execPath, [SCRIPT, '--target', 'alpine-x64'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(refused.status, 1);
    assert.equal(refused.stderr.trim(), 'package: GAI has no package for alpine-x64; the targets are linux-x64, linux-arm64, win32-x64, win32-arm64, darwin-x64, darwin-arm64 (pass --target)');
  });
});
