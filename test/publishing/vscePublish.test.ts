// vsce's own publishing checks on the real manifest, offline: `vsce package` (the packaging
// validation: engine, @types/vscode agreeing with it, icon not SVG, badge hosts, activation,
// extensionKind) on a small copy of the extension, then `vsce publish --packagePath` on that
// .vsix with VSCE_MARKETPLACE_URL pointed at a local server. vsce checks the manifest for
// publishing (proposed APIs, prerelease versions, publisher) before its first request, so a
// request reaching the local server means every check passed; nothing leaves this machine.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const VSCE = join(dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');

interface Manifest {
  publisher: string;
  name: string;
  version: string;
  icon?: string;
  repository?: unknown;
  enabledApiProposals?: string[];
  badges?: Array<{ url: string; href: string; description: string }>;
  [key: string]: unknown;
}

interface Run {
  code: number | null;
  output: string;
}

function vsce(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((done) => {
    // stdin closed and no TTY: vsce answers its own prompts, so a warning is in the output, not a hang.
    const child = spawn(process.execPath, [VSCE, ...args], { cwd, env: { ...process.env, VSCE_TESTS: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => done({ code, output }));
  });
}

/** The extension folder vsce packs: the real manifest and the files it names, a one-line main. */
function stage(manifest: Manifest): string {
  const dir = mkdtempSync(join(tmpdir(), 'gai-publish-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, dependencies: undefined, scripts: undefined }, null, 2));
  for (const file of ['README.md', 'CHANGELOG.md', 'LICENSE']) copyFileSync(join(ROOT, file), join(dir, file));
  if (manifest.icon) {
    mkdirSync(dirname(join(dir, manifest.icon)), { recursive: true });
    copyFileSync(join(ROOT, manifest.icon), join(dir, manifest.icon));
  }
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'extension.js'), 'exports.activate = () => undefined;\n');
  writeFileSync(join(dir, '.vscodeignore'), '');
  return dir;
}

async function packageAndPublish(manifest: Manifest, gallery: string): Promise<{ pack: Run; publish?: Run }> {
  const dir = stage(manifest);
  try {
    const vsix = join(dir, 'out.vsix');
    // The relative links stay as they are, as scripts/package.mjs packs them.
    const pack = await vsce(['package', '--no-dependencies', '--no-rewrite-relative-links', '--out', vsix], dir);
    if (pack.code !== 0) return { pack };
    const publish = await vsce(['publish', '--packagePath', vsix, '--pat', 'not-a-token'], dir, { VSCE_MARKETPLACE_URL: gallery });
    return { pack, publish };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('publishing: vsce accepts the manifest', function () {
  this.timeout(120_000);
  const real = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
  let server: Server;
  let gallery: string;
  let requests: string[];

  before(async () => {
    server = createServer((request, response) => {
      requests.push(`${request.method ?? '?'} ${request.url ?? '?'}`);
      response.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"a test gallery"}');
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    gallery = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());
  beforeEach(() => (requests = []));

  it('the real manifest passes vsce package and every check vsce publish runs before uploading', async () => {
    const { pack, publish } = await packageAndPublish(real, gallery);
    assert.equal(pack.code, 0, pack.output);
    // The public repository's URL is not decided yet (package.json has none, and none is made up):
    // until then vsce's one warning is that one, and scripts/release.mjs refuses to publish.
    const warnings = pack.output.split('\n').filter((line) => /WARNING/.test(line));
    assert.deepEqual(warnings.map((line) => line.trim()), real.repository ? [] : ["WARNING  A 'repository' field is missing from the 'package.json' manifest file."], pack.output);
    assert.doesNotMatch(pack.output, /proposed API/i, pack.output);
    assert.ok(publish, 'publish ran');
    assert.doesNotMatch(publish.output, /can't be published|prerelease|Invalid publisher/i, publish.output);
    assert.ok(requests.length > 0, `vsce publish reached the gallery (its checks passed): ${publish.output}`);
  });

  it('a manifest enabling a proposed API is refused by vsce publish with its own message, before any upload', async () => {
    const { pack, publish } = await packageAndPublish({ ...real, enabledApiProposals: ['contribLanguageModelToolSets'] }, gallery);
    assert.equal(pack.code, 0, pack.output);
    assert.ok(publish);
    assert.notEqual(publish.code, 0);
    assert.match(publish.output, /Extensions using unallowed proposed API \(enabledApiProposals: \[contribLanguageModelToolSets\]/);
    assert.deepEqual(requests, []);
  });

  it('vsce package refuses an SVG icon and an SVG badge from an untrusted host', async () => {
    const svgIcon = await packageAndPublish({ ...real, icon: 'media/icon.svg' }, gallery);
    assert.notEqual(svgIcon.pack.code, 0);
    assert.match(svgIcon.pack.output, /SVGs can't be used as icons/);
    const badge = { url: 'https://example.com/badge.svg', href: 'https://example.com', description: 'x' };
    const badged = await packageAndPublish({ ...real, badges: [badge] }, gallery);
    assert.notEqual(badged.pack.code, 0);
    assert.match(badged.pack.output, /Badge SVGs are restricted/);
  });

  it('the fields the registries show are there and true', () => {
    // ovsx's own checks before an upload (ovsx 1.x, not installed: it needs Node 22) are these
    // three fields and a license (the field or a LICENSE file); Open VSX checks the rest on upload.
    assert.ok(real.name && real.version, 'name and version');
    assert.equal(real.publisher, 'gai');
    assert.equal(real.icon, 'media/icon.png');
    const png = readFileSync(join(ROOT, 'media/icon.png'));
    // The Marketplace wants a PNG of at least 128x128: IHDR's width and height.
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.ok(png.readUInt32BE(16) >= 128 && png.readUInt32BE(20) >= 128, 'icon at least 128x128');
    assert.equal(real.license, 'MIT');
    assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), /MIT License/);
    assert.equal(real.enabledApiProposals, undefined);
    assert.match(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'), /^## \[(Unreleased|\d+\.\d+\.\d+)\]/m);
  });
});
