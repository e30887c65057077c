// scripts/release.mjs run as people run it, on a throwaway git repository holding a copy of the
// script: its refusals (dirty tree, tagged version, no CHANGELOG entry, no repository), its
// arguments, and its dry run over six .vsix files already packaged (--skip-package). No token
// is set in these runs, so nothing is published.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const TARGETS = ['linux-x64', 'linux-arm64', 'win32-x64', 'win32-arm64', 'darwin-x64', 'darwin-arm64'];
const NO_TOKENS = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'VSCE_PAT' && key !== 'OVSX_PAT'));

function git(dir: string, ...args: string[]): void {
  const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
}

interface Repo {
  dir: string;
  out: string;
}

function repo(manifest: Record<string, unknown>, changelog: string): Repo {
  const dir = mkdtempSync(join(tmpdir(), 'gai-release-test-'));
  mkdirSync(join(dir, 'scripts'));
  copyFileSync(join(ROOT, 'scripts/release.mjs'), join(dir, 'scripts/release.mjs'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'gai', version: '1.2.3', repository: { type: 'git', url: 'https://example.invalid/gai.git' }, ...manifest }));
  writeFileSync(join(dir, 'CHANGELOG.md'), changelog);
  writeFileSync(join(dir, '.gitignore'), 'out/\n');
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'init');
  const out = join(dir, 'out');
  mkdirSync(out);
  for (const target of TARGETS) writeFileSync(join(out, `gai-1.2.3-${target}.vsix`), 'not a real package');
  return { dir, out };
}

function release(r: Repo, args: string[], env: NodeJS.ProcessEnv = NO_TOKENS): { code: number | null; out: string; err: string } {
  const run = spawnSync(process.execPath, [join(r.dir, 'scripts/release.mjs'), ...args], { cwd: r.dir, env, encoding: 'utf8' });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

const CHANGELOG = '# Changelog\n\n## [1.2.3] - 2026-11-29\n\n### Added\n\n- Things.\n';

describe('release script', function () {
  this.timeout(60_000);
  const made: Repo[] = [];
  const fresh = (manifest: Record<string, unknown> = {}, changelog = CHANGELOG): Repo => {
    const r = repo(manifest, changelog);
    made.push(r);
    return r;
  };
  after(() => made.forEach((r) => rmSync(r.dir, { recursive: true, force: true })));

  it('without tokens it is a dry run: says each vsce and ovsx publish it would run, for all six targets', () => {
    const r = fresh();
    const run = release(r, ['--skip-package', '--out-dir', r.out]);
    assert.equal(run.code, 0, run.err);
    const lines = run.out.split('\n').filter((line) => line.startsWith('dry run'));
    assert.equal(lines.length, 12, run.out);
    for (const target of TARGETS) {
      const file = join(r.out, `gai-1.2.3-${target}.vsix`);
      assert.ok(lines.includes(`dry run (VSCE_PAT not set): would publish to Visual Studio Marketplace: vsce publish --packagePath ${file}`), run.out);
      assert.ok(lines.includes(`dry run (OVSX_PAT not set): would publish to Open VSX: ovsx publish ${file}`), run.out);
    }
    assert.match(run.out, /release 1\.2\.3: 6 packages/);
  });

  it('--dry-run stays a dry run with tokens set', () => {
    const r = fresh();
    const run = release(r, ['--dry-run', '--skip-package', '--out-dir', r.out], { ...NO_TOKENS, VSCE_PAT: 'x', OVSX_PAT: 'y' });
    assert.equal(run.code, 0, run.err);
    assert.equal(run.out.split('\n').filter((line) => line.startsWith('dry run (--dry-run): would publish')).length, 12, run.out);
    assert.doesNotMatch(run.out, /^published/m);
  });

  it('refuses a dirty tree, a tagged version, a CHANGELOG without the version and a manifest without repository, all said at once', () => {
    const r = fresh({ repository: undefined }, '# Changelog\n\n## [Unreleased]\n');
    git(r.dir, 'tag', 'v1.2.3');
    writeFileSync(join(r.dir, 'stray.txt'), 'x');
    const run = release(r, ['--skip-package', '--out-dir', r.out]);
    assert.equal(run.code, 1);
    assert.match(run.err, /^release: not releasing 1\.2\.3:/);
    assert.match(run.err, /git tree has uncommitted changes \(1 paths\)/);
    assert.match(run.err, /already tagged v1\.2\.3/);
    assert.match(run.err, /CHANGELOG\.md has no "## \[1\.2\.3\] - YYYY-MM-DD" entry/);
    assert.match(run.err, /package\.json has no "repository"/);
    assert.doesNotMatch(run.out, /would publish/);
  });

  it('refuses a proposed API, and each refusal alone', () => {
    const proposed = release(fresh({ enabledApiProposals: ['contribLanguageModelToolSets'] }), ['--dry-run']);
    assert.equal(proposed.code, 1);
    assert.match(proposed.err, /enables proposed APIs \(contribLanguageModelToolSets\)/);
    const tagged = fresh();
    git(tagged.dir, 'tag', 'v1.2.3');
    const run = release(tagged, ['--dry-run']);
    assert.equal(run.code, 1);
    assert.deepEqual(run.err.trim().split('\n').slice(1), ['- version 1.2.3 is already tagged v1.2.3: raise "version" in package.json']);
  });

  it('--from-tag releases the tag HEAD is, and refuses when the tag is missing or elsewhere', () => {
    const r = fresh();
    const untagged = release(r, ['--from-tag', '--skip-package', '--out-dir', r.out]);
    assert.equal(untagged.code, 1);
    assert.match(untagged.err, /--from-tag: HEAD is not tagged v1\.2\.3/);
    git(r.dir, 'tag', 'v1.2.3');
    const tagged = release(r, ['--from-tag', '--skip-package', '--out-dir', r.out]);
    assert.equal(tagged.code, 0, tagged.err);
    assert.match(tagged.out, /release 1\.2\.3: 6 packages/);
    git(r.dir, 'commit', '-q', '--allow-empty', '-m', 'later');
    const moved = release(r, ['--from-tag', '--skip-package', '--out-dir', r.out]);
    assert.equal(moved.code, 1);
    assert.match(moved.err, /HEAD is not tagged v1\.2\.3/);
  });

  it('says which packages are missing from the out dir', () => {
    const r = fresh();
    rmSync(join(r.out, 'gai-1.2.3-darwin-arm64.vsix'));
    const run = release(r, ['--skip-package', '--out-dir', r.out]);
    assert.equal(run.code, 1);
    assert.match(run.err, /missing packages in .*: gai-1\.2\.3-darwin-arm64\.vsix/);
  });

  it('rejects unknown arguments and --skip-package without --out-dir', () => {
    const r = fresh();
    const unknown = release(r, ['--publish-now']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /unknown argument --publish-now\. usage: node scripts\/release\.mjs/);
    const skip = release(r, ['--skip-package']);
    assert.equal(skip.code, 1);
    assert.match(skip.err, /--skip-package needs --out-dir/);
    const empty = release(r, ['--out-dir']);
    assert.match(empty.err, /--out-dir needs a folder/);
  });
});
