// A fresh machine passes `npm test`: every program the code starts (src/, test/, scripts/,
// bench/) is in the inventory (scripts/externalPrograms.mjs), the inventory's packages are the
// ones ensureDeps or the VS Code host installer installs, and, on Debian, each one resolves.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RunTimeCommand } from '../../scripts/externalPrograms.mjs';
import { scanSpawns, type ScannedFile, type SpawnScan, type SpawnUse, type UnresolvedSpawn } from './spawnScanner';

type Inventory = typeof import('../../scripts/externalPrograms.mjs');
type EnsureDeps = typeof import('../../scripts/ensureDeps.mjs');
type HostInstaller = typeof import('../../scripts/vscodeHost/install.mjs');

const ROOT = path.resolve(__dirname, '..', '..');
const SCANNED_DIRS = ['src', 'test', 'scripts', 'bench'];
const SOURCE_FILE = /\.(ts|mts|cts|mjs|cjs|js)$/;
const INVENTORY = 'scripts/externalPrograms.mjs';

function readTree(): ScannedFile[] {
  const top = readdirSync(ROOT).filter((name) => SOURCE_FILE.test(name));
  const nested = SCANNED_DIRS.flatMap((dir) => readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((name) => path.join(dir, name)));
  return [...top, ...nested]
    .filter((name) => SOURCE_FILE.test(name) && !/\.d\.[cm]?ts$/.test(name))
    .map((name) => ({ path: name.split(path.sep).join('/'), text: readFileSync(path.join(ROOT, name), 'utf8') }));
}

function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return path.join(dir, command);
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** Where a program is started, for messages: the first three places. */
function where(uses: readonly SpawnUse[], command: string): string {
  const places = uses.filter((u) => u.command === command).map((u) => `${u.file}:${u.line}`);
  return places.length === 0 ? 'not started by our code' : `used at ${places.slice(0, 3).join(', ')}${places.length > 3 ? ` and ${places.length - 3} more` : ''}`;
}

describe('external programs: installed on a fresh machine, or optional', function () {
  // Parsing the sources with the TypeScript compiler takes a few seconds on a busy machine.
  this.timeout(120_000);
  let scan: SpawnScan;
  let inventory: Inventory;
  let aptPackages: string[];
  let host: HostInstaller;

  before(async function () {
    scan = scanSpawns(readTree());
    inventory = (await import('../../scripts/externalPrograms.mjs')) as Inventory;
    aptPackages = ((await import('../../scripts/ensureDeps.mjs')) as EnsureDeps).APT_PACKAGES;
    host = (await import('../../scripts/vscodeHost/install.mjs')) as HostInstaller;
  });

  it('sees the programs it must see (the scan itself works)', function () {
    const found = (command: string, file: string): boolean => scan.uses.some((u) => u.command === command && u.file === file);
    assert.ok(found('Xvfb', 'src/platform/linux/x11/virtualDisplay.ts'), 'Xvfb through the spawnLogged() wrapper');
    assert.ok(found('xwininfo', 'src/platform/linux/x11/x11Windows.ts'), 'xwininfo through promisify(execFile)');
    assert.ok(found('python3', 'test/desktop/support/fixture.ts'), 'python3 through a constant');
    assert.ok(found('sleep', 'src/platform/linux/x11/virtualDisplay.ts'), 'sleep inside the watchdog\'s sh -c script');
    assert.ok(found('node', 'scripts/test.mjs'), 'process.execPath');
  });

  it(`names every program the code starts in ${INVENTORY}`, function () {
    const missing = [...new Set(scan.uses.map((u) => u.command))].filter((command) => !Object.hasOwn(inventory.EXTERNAL_PROGRAMS, command));
    const lines = missing.map((command) => `"${command}" (${where(scan.uses, command)})`);
    assert.deepEqual(
      lines,
      [],
      `programs missing from ${INVENTORY}:\n  ${lines.join('\n  ')}\n` +
        'Add each with where it comes from: an APT_PACKAGES package (scripts/ensureDeps.mjs), the VS Code host installer, Node, Debian itself, ' +
        'or `optional` with the reason its tests print when they skip; or start it through something that is installed.',
    );
  });

  it('pins every spawn site to a named program, or lists it as decided at run time', function () {
    const matches = (r: RunTimeCommand, u: UnresolvedSpawn): boolean => r.file === u.file && (r.expression === null || r.expression === u.expression);
    const unknown = scan.unresolved.filter((u) => !inventory.RUN_TIME_COMMANDS.some((r) => matches(r, u))).map((u) => `${u.file}:${u.line}: \`${u.expression}\` (${u.why})`);
    assert.deepEqual(unknown, [], `cannot tell which program these start; use a fixed name, or list them in RUN_TIME_COMMANDS of ${INVENTORY}:\n  ${unknown.join('\n  ')}`);
    const stale = inventory.RUN_TIME_COMMANDS.filter((r) => !scan.unresolved.some((u) => matches(r, u)));
    assert.deepEqual(stale.map((r) => `${r.file}: \`${r.expression ?? '(any)'}\``), [], `RUN_TIME_COMMANDS entries that match no spawn site any more; remove them from ${INVENTORY}`);
    const unnamed = inventory.RUN_TIME_COMMANDS.filter((r) => r.command !== null && !Object.hasOwn(inventory.EXTERNAL_PROGRAMS, r.command));
    assert.deepEqual(unnamed.map((r) => `${r.file}: ${r.command}`), [], 'RUN_TIME_COMMANDS name programs missing from EXTERNAL_PROGRAMS');
  });

  it('lists only programs something starts (a library starting one is marked indirect)', function () {
    const started = new Set([...scan.uses.map((u) => u.command), ...inventory.RUN_TIME_COMMANDS.map((r) => r.command)]);
    const stale = Object.entries(inventory.EXTERNAL_PROGRAMS).filter(([command, entry]) => !started.has(command) && !entry.indirect);
    assert.deepEqual(stale.map(([command]) => command), [], `no code starts these any more; remove them from ${INVENTORY} or mark them indirect`);
    const hidden = Object.entries(inventory.EXTERNAL_PROGRAMS).filter(([command, entry]) => entry.indirect && started.has(command));
    assert.deepEqual(hidden.map(([command]) => command), [], 'marked indirect, but our code starts them: drop `indirect`');
  });

  it('has each program come from exactly one source, and each package from ensureDeps or the VS Code host installer', function () {
    const problems: string[] = [];
    const testTexts = readTree().filter((f) => f.path.startsWith('test/')).map((f) => f.text);
    for (const [command, entry] of Object.entries(inventory.EXTERNAL_PROGRAMS)) {
      const sources = (['apt', 'hostApt', 'node', 'debian', 'platform', 'optional'] as const).filter((key) => entry[key] !== undefined);
      if (sources.length !== 1) problems.push(`${command}: needs exactly one of apt, hostApt, node, debian, platform, optional (has ${sources.join(', ') || 'none'})`);
      if (!entry.for) problems.push(`${command}: say what needs it (\`for\`)`);
      if (entry.apt && !aptPackages.includes(entry.apt)) problems.push(`${command}: Debian package ${entry.apt} is not in APT_PACKAGES (scripts/ensureDeps.mjs)`);
      if (entry.hostApt && !host.HOST_APT_PACKAGES.includes(entry.hostApt)) problems.push(`${command}: Debian package ${entry.hostApt} is not in HOST_APT_PACKAGES (scripts/vscodeHost/install.mjs)`);
      if (entry.optional && !testTexts.some((text) => text.includes(entry.optional!))) {
        problems.push(`${command}: optional, but no test prints its skip reason "${entry.optional}"`);
      }
    }
    assert.deepEqual(problems, [], `${INVENTORY}:\n  ${problems.join('\n  ')}`);
  });

  it('finds every program ensureDeps is responsible for on PATH (Debian, after ensureDeps)', function () {
    if (process.platform !== 'linux' || spawnSync('dpkg', ['--version'], { stdio: 'ignore' }).error) {
      this.test!.title += ` (skipped: not a Debian system, ${process.platform})`;
      this.skip();
    }
    const missing = Object.entries(inventory.EXTERNAL_PROGRAMS)
      .filter(([, entry]) => entry.apt || entry.node || entry.debian)
      .filter(([command]) => !(command === 'node' && existsSync(process.execPath)) && !onPath(command))
      .map(([command, entry]) => `${command} (${entry.apt ? `Debian package ${entry.apt}` : entry.debian ? `Debian's ${entry.debian}` : 'Node.js'}; ${where(scan.uses, command)})`);
    assert.deepEqual(missing, [], `not on PATH:\n  ${missing.join('\n  ')}\nRun \`node scripts/ensureDeps.mjs\` (as root it installs the Debian packages).`);
  });

  it('finds the VS Code host installer\'s programs once it has run', function () {
    if (process.platform !== 'linux' || !existsSync(host.hostPaths().node)) {
      this.test!.title += ' (skipped: the VS Code host is not installed yet; the vscode suite runs scripts/vscodeHost/install.mjs first)';
      this.skip();
    }
    const missing = Object.entries(inventory.EXTERNAL_PROGRAMS)
      .filter(([command, entry]) => entry.hostApt && !onPath(command))
      .map(([command, entry]) => `${command} (Debian package ${entry.hostApt}; ${where(scan.uses, command)})`);
    assert.deepEqual(missing, [], `not on PATH although the VS Code host is installed:\n  ${missing.join('\n  ')}`);
  });
});
