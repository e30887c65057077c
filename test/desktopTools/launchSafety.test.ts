import { strict as assert } from 'node:assert';
import { appNameProblem, InvalidAppNameError, LaunchNotAllowedError } from '../../src/desktop/launchNames';
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
