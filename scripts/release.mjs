// `npm run release`: packages every target (`node scripts/package.mjs --all --out-dir DIR`) and
// publishes each .vsix to the VS Code Marketplace (`vsce publish --packagePath`, VSCE_PAT) and
// Open VSX (`ovsx publish`, OVSX_PAT). A registry whose token is missing is a dry run for it:
// the script says what it would do. It refuses, before packaging, a dirty git tree, a version
// already tagged, a CHANGELOG without the version's heading, and a manifest without repository.
// Usage: node scripts/release.mjs [--dry-run] [--out-dir DIR] [--skip-package] [--from-tag]
//   --skip-package  publish the .vsix files already in --out-dir (CI packages in its own step)
//   --from-tag      release the tag v<version> that HEAD is (CI on a pushed tag): the tag must
//                   exist and point at HEAD instead of not existing
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TARGETS = ['linux-x64', 'linux-arm64', 'win32-x64', 'win32-arm64', 'darwin-x64', 'darwin-arm64'];
const USAGE = 'usage: node scripts/release.mjs [--dry-run] [--out-dir DIR] [--skip-package] [--from-tag]';

class ReleaseError extends Error {}

export function parseArgs(argv) {
  const options = { dryRun: false, outDir: undefined, skipPackage: false, fromTag: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--dry-run') options.dryRun = true;
    else if (arg === '--skip-package') options.skipPackage = true;
    else if (arg === '--from-tag') options.fromTag = true;
    else if (arg === '--out-dir') {
      const value = argv[++i];
      if (!value || value.startsWith('--')) throw new ReleaseError(`--out-dir needs a folder. ${USAGE}`);
      options.outDir = resolve(value);
    } else throw new ReleaseError(`unknown argument ${arg}. ${USAGE}`);
  }
  if (options.skipPackage && !options.outDir) throw new ReleaseError(`--skip-package needs --out-dir with the .vsix files. ${USAGE}`);
  return options;
}

function git(root, args) {
  const run = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (run.error || run.status !== 0) throw new ReleaseError(`git ${args.join(' ')} failed: ${(run.stderr || run.error?.message || '').trim()}`);
  return run.stdout;
}

/** Every reason this tree may not be released, in one list (empty: go). */
export function refusals(root, fromTag = false) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const version = manifest.version;
  const reasons = [];
  const dirty = git(root, ['status', '--porcelain']).trim();
  if (dirty) reasons.push(`the git tree has uncommitted changes (${dirty.split('\n').length} paths): commit or set them aside first`);
  const tagged = git(root, ['tag', '--list', `v${version}`]).trim() !== '';
  if (!fromTag && tagged) reasons.push(`version ${version} is already tagged v${version}: raise "version" in package.json`);
  if (fromTag && (!tagged || git(root, ['rev-list', '-n', '1', `v${version}`]).trim() !== git(root, ['rev-parse', 'HEAD']).trim())) {
    reasons.push(`--from-tag: HEAD is not tagged v${version} (package.json's version): tag the release commit v${version}`);
  }
  const changelog = existsSync(join(root, 'CHANGELOG.md')) ? readFileSync(join(root, 'CHANGELOG.md'), 'utf8') : '';
  const heading = new RegExp(`^## \\[${version.replaceAll('.', '\\.')}\\]`, 'm');
  if (!heading.test(changelog)) reasons.push(`CHANGELOG.md has no "## [${version}] - YYYY-MM-DD" entry: write what this version changes`);
  if (!manifest.repository) reasons.push('package.json has no "repository": the Marketplace page links and README images need the public repository URL');
  if (manifest.enabledApiProposals) reasons.push(`package.json enables proposed APIs (${manifest.enabledApiProposals.join(', ')}): the Marketplace and Open VSX refuse them`);
  return { version, reasons };
}

function tool(root, pkg, bin) {
  const require = createRequire(join(root, 'package.json'));
  try {
    return join(dirname(require.resolve(`${pkg}/package.json`)), bin);
  } catch {
    return undefined;
  }
}

function run(command, args, root) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error || result.status !== 0) throw new ReleaseError(`${[command, ...args].join(' ')} failed (${result.error?.message ?? `exit ${result.status}`})`);
}

/** The publish commands, one per .vsix and registry; `token` says whether it runs for real. */
export function plan(files, env, dryRun) {
  const registries = [
    { name: 'Visual Studio Marketplace', token: 'VSCE_PAT', command: (file) => ['vsce', 'publish', '--packagePath', file] },
    { name: 'Open VSX', token: 'OVSX_PAT', command: (file) => ['ovsx', 'publish', file] },
  ];
  return registries.flatMap((registry) =>
    files.map((file) => ({ registry: registry.name, file, command: registry.command(file), real: !dryRun && !!env[registry.token], token: registry.token })),
  );
}

export function main(argv, env = process.env, root = resolve(dirname(fileURLToPath(import.meta.url)), '..'), log = console.log) {
  const options = parseArgs(argv);
  const { version, reasons } = refusals(root, options.fromTag);
  if (reasons.length) throw new ReleaseError(`not releasing ${version}:\n- ${reasons.join('\n- ')}`);
  const outDir = options.outDir ?? mkdtempSync(join(tmpdir(), `gai-release-${version}-`));
  if (!options.skipPackage) run(process.execPath, [join(root, 'scripts', 'package.mjs'), '--all', '--out-dir', outDir], root);
  const files = TARGETS.map((target) => join(outDir, `gai-${version}-${target}.vsix`));
  const missing = files.filter((file) => !existsSync(file));
  if (missing.length) throw new ReleaseError(`missing packages in ${outDir}: ${missing.map((file) => file.slice(outDir.length + 1)).join(', ')} (found: ${readdirSync(outDir).join(', ') || 'none'})`);
  for (const step of plan(files, env, options.dryRun)) {
    if (!step.real) {
      log(`dry run (${options.dryRun ? '--dry-run' : `${step.token} not set`}): would publish to ${step.registry}: ${step.command.join(' ')}`);
      continue;
    }
    const [name, ...args] = step.command;
    const bin = name === 'vsce' ? tool(root, '@vscode/vsce', 'vsce') : tool(root, 'ovsx', 'lib/ovsx');
    // Tokens go by environment (VSCE_PAT and OVSX_PAT are what both tools read), never argv.
    // ovsx is not a devDependency (1.x needs Node 22, and brings its own vsce): npx fetches it.
    if (bin) run(process.execPath, [bin, ...args], root);
    else run(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['--yes', name === 'ovsx' ? 'ovsx@1' : name, ...args], root);
    log(`published to ${step.registry}: ${step.file}`);
  }
  log(`release ${version}: ${files.length} packages in ${outDir}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    console.error(`release: ${error.message}`);
    process.exit(1);
  }
}
