import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { LinuxAppLauncher } from '../../src/platform/linux/appLaunchers';
import { appNameProblem, InvalidAppNameError, LaunchNotAllowedError } from '../../src/desktop/input/launchNames';
import { LaunchAppTool } from '../../src/tools/desktop/launchAppTool';
import { createFakeDesktop, makeServices, runTool, type FakeDesktop } from '../support/fakeDesktop';

// launch_app starts installed applications by name: a path, a command line or shell syntax
// is refused before the launcher is asked, naming the field.

const REFUSED: Array<[string, RegExp]> = [
  ["sh -c 'touch X'", /contains "'", which is shell syntax/],
  ['../x', /is a path/],
  ['/usr/bin/xcalc', /is a path/],
  ['C:calc', /is a path/],
  ['~/bin/app', /is a path/],
  ['bin\\app', /is a path/],
  ['$(touch X)', /contains "\$", which is shell syntax/],
  ['`touch X`', /contains "`"/],
  ['a;touch X', /contains ";"/],
  ['a|b', /contains "\|"/],
  ['a&b', /contains "&"/],
  ['a>b', /contains ">"/],
  ['a<b', /contains "<"/],
  ['a\nb', /contains "\\n"/],
  ['a\u0000b', /contains "\\u0000"/],
  ['calc*', /contains "\*"/],
  ['%COMSPEC%', /contains "%"/],
  ['sh -c touch', /word starting with "-"/],
  ['-rf', /word starting with "-"/],
  ['  ', /empty/],
  ['x'.repeat(101), /longer than 100 characters/],
  ['app\u202e', /characters an application name does not/],
];

const ACCEPTED = ['Calculator', 'Text Editor', 'gnome-calculator', 'org.gnome.Calculator', 'Notepad++', 'LibreOffice Writer', 'Visual Studio Code', 'Café 3D', 'GAI Fixture', 'xcalc'];

describe('launch_app names', () => {
  for (const [name, problem] of REFUSED) {
    it(`refuses ${JSON.stringify(name.slice(0, 30))}`, () => {
      const found = appNameProblem(name);
      assert.ok(found, 'refused');
      assert.match(found, /^appName: /);
      assert.match(found, problem);
    });
  }

  it('accepts names as menus show them', () => {
    for (const name of ACCEPTED) assert.equal(appNameProblem(name), undefined, name);
  });

  describe('the tool', () => {
    let fake: FakeDesktop;
    beforeEach(() => {
      fake = createFakeDesktop();
    });

    it('answers INVALID_INPUT naming appName and never calls the launcher for shell syntax or paths', async () => {
      for (const appName of ["sh -c 'touch X'", '../x', '$(touch X)', 'a;touch X', '/usr/bin/env']) {
        const result = await runTool(new LaunchAppTool(makeServices(fake)), { appName });
        assert.equal(result.code, 'INVALID_INPUT', appName);
        assert.match(result.error ?? '', /appName: /);
      }
      assert.deepEqual(fake.launcher.launches, []);
    });

    it('tells the model that its schema takes a name, bounded in length', () => {
      const schema = new LaunchAppTool(makeServices(fake)).getDefinition().inputSchema as unknown as { properties: { appName: { maxLength: number; description: string } } };
      assert.equal(schema.properties.appName.maxLength, 100);
      assert.match(schema.properties.appName.description, /never a path or a command line/);
    });

    it('maps a launcher refusal to INVALID_INPUT and a program not allowed to DENIED', async () => {
      fake.launcher.failure = new InvalidAppNameError('appName: "x;y" contains ";"');
      const invalid = await runTool(new LaunchAppTool(makeServices(fake)), { appName: 'Calculator' });
      assert.equal(invalid.code, 'INVALID_INPUT');
      fake.launcher.failure = new LaunchNotAllowedError('rm', '/usr/bin/rm');
      const denied = await runTool(new LaunchAppTool(makeServices(fake)), { appName: 'rm' });
      assert.equal(denied.code, 'DENIED');
      assert.match(denied.observation, /did NOT run \/usr\/bin\/rm/);
      assert.match(denied.error ?? '', /gai\.launch\.allow \(CLI config: launch\.allow\)/);
    });
  });
});

/** Waits (bounded) until a file exists; a detached child writes it. */
async function fileAppears(file: string, withinMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (existsSync(file)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return existsSync(file);
}

(process.platform === 'linux' ? describe : describe.skip)('LinuxAppLauncher', function () {
  this.timeout(15_000);
  let dir: string;
  let bin: string;
  let env: NodeJS.ProcessEnv;
  const program = 'gai-probe-prog';

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gai-launch-'));
    bin = path.join(dir, 'bin');
    mkdirSync(bin);
    mkdirSync(path.join(dir, 'data', 'applications'), { recursive: true });
    // The probe writes its arguments, one a line, next to itself.
    writeFileSync(path.join(bin, program), '#!/bin/sh\nprintf \'%s\\n\' "$@" > "$0.ran.tmp" && mv "$0.ran.tmp" "$0.ran"\n');
    chmodSync(path.join(bin, program), 0o755);
    env = { PATH: `${bin}:/usr/bin:/bin`, XDG_DATA_HOME: path.join(dir, 'data'), XDG_DATA_DIRS: path.join(dir, 'none') };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a program on PATH that has no desktop entry unless launch.allow names it', async () => {
    const ran = path.join(bin, `${program}.ran`);
    await assert.rejects(new LinuxAppLauncher(env).launch(program), (error: Error) => {
      assert.ok(error instanceof LaunchNotAllowedError);
      assert.match(error.message, new RegExp(`the program ${bin}/${program}; programs run only when the person allowed them by name in gai\\.launch\\.allow`));
      return true;
    });
    assert.equal(existsSync(ran), false);
    const result = await new LinuxAppLauncher(env, undefined, ['GAI-Probe-Prog']).launch(program);
    assert.match(result.method, /^executable /);
    assert.equal(await fileAppears(ran), true, 'the allowed program ran');
  });

  it('refuses shell syntax and paths before looking anything up; nothing runs', async () => {
    const marker = path.join(dir, 'X');
    for (const name of [`a;touch ${marker}`, `$(touch ${marker})`, `sh -c 'touch ${marker}'`, '../x', `${bin}/${program}`]) {
      await assert.rejects(new LinuxAppLauncher(env, undefined, [program, 'sh', 'a']).launch(name), InvalidAppNameError, name);
    }
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(existsSync(marker), false);
    assert.equal(existsSync(path.join(bin, `${program}.ran`)), false);
  });

  it('runs a desktop entry without a shell: its shell syntax reaches the program as plain arguments', async () => {
    const marker = path.join(dir, 'Y');
    writeFileSync(
      path.join(dir, 'data', 'applications', 'probe.desktop'),
      `[Desktop Entry]\nType=Application\nName=Probe App\nExec=${program} "a;touch ${marker}" $(touch\\s${marker}) %U\n`,
    );
    const result = await new LinuxAppLauncher(env).launch('Probe App');
    assert.match(result.method, /desktop entry probe\.desktop/);
    const ran = path.join(bin, `${program}.ran`);
    assert.equal(await fileAppears(ran), true);
    assert.deepEqual(readFileSync(ran, 'utf8').split('\n').filter(Boolean), [`a;touch ${marker}`, '$(touch', `${marker})`]);
    assert.equal(existsSync(marker), false);
  });
});
