// `gai apps allow|deny|list|forget` on the file the app permission prompts keep their answers in.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appPermissionsFile } from '../../src/app/gaiFiles';
import { JsonFileAppPermissionStore } from '../../src/safety/appPermissionStore';
import { runCliCaptured, tempDir } from '../support/cliHarness';

describe('gai apps', () => {
  let home: ReturnType<typeof tempDir>;
  let env: Record<string, string>;
  const gai = (...args: string[]): ReturnType<typeof runCliCaptured> => runCliCaptured(['apps', ...args], env);

  beforeEach(() => {
    home = tempDir('gai-apps-');
    env = { XDG_CONFIG_HOME: join(home.path, 'config') };
  });
  afterEach(() => home.remove());

  it('allow and deny write what the guard reads; list shows them; forget removes one', async () => {
    const allowed = await gai('allow', 'Galculator');
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stdout, /GAI may act in galculator \(kept in .*app-permissions\.json\)/);
    assert.equal((await gai('deny', 'org.gnome.Nautilus.exe')).code, 0);

    // The store the terminal prompt, VS Code's and gai mcp's question use reads the same decisions.
    const store = new JsonFileAppPermissionStore(appPermissionsFile(env));
    assert.deepEqual(await store.all(), { galculator: 'always', 'org.gnome.nautilus': 'never' });

    const text = await gai('list');
    assert.equal(text.code, 0);
    assert.match(text.stdout, /^always {2}galculator\nnever {3}org\.gnome\.nautilus\n\(kept in .*\)\n$/);
    const json = JSON.parse((await gai('list', '--json')).stdout) as { file: string; apps: unknown[] };
    assert.equal(json.file, appPermissionsFile(env));
    assert.deepEqual(json.apps, [{ app: 'galculator', decision: 'always' }, { app: 'org.gnome.nautilus', decision: 'never' }]);

    const forgot = await gai('forget', 'GALCULATOR');
    assert.equal(forgot.code, 0, forgot.stderr);
    assert.match(forgot.stdout, /Forgot the decision for galculator: GAI asks again next time/);
    assert.deepEqual(await store.all(), { 'org.gnome.nautilus': 'never' });
    assert.equal(JSON.parse(readFileSync(appPermissionsFile(env), 'utf8')).version, 1, 'still a valid permissions file');

    const again = await gai('forget', 'galculator');
    assert.equal(again.code, 1);
    assert.match(again.stderr, /no decision is kept for galculator \(gai apps list shows them\)/);
  });

  it('list with nothing kept says so, and where', async () => {
    const run = await gai('list');
    assert.equal(run.code, 0);
    assert.match(run.stdout, /No decisions kept yet \(.*app-permissions\.json\)/);
  });

  it('refuses bad input naming the field, with exit 2, and writes nothing', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['allow'], /missing required argument 'name'/],
      [['forget'], /missing required argument 'name'/],
      [['allow', '  '], /name: empty; give the application's name as its window reports it/],
      [['allow', 'gal*'], /name: "gal\*" is a pattern, not an application; patterns go in apps\.allow \/ apps\.deny of the config file/],
      [['deny', '/usr/bin/galculator'], /name: "\/usr\/bin\/galculator" looks like a path/],
      [['allow', '@desktop'], /name: "@desktop" is not an application name/],
      [['allow', 'gal\u001b[31mculator'], /name: .* contains control characters/],
      [['allow', 'x'.repeat(201)], /name: longer than 200 characters/],
      [['allow', 'xterm'], /name: xterm is one of the terminals GAI never acts in by default; only naming it in apps\.allow of the config file lifts that/],
      [['allow', 'org.keepassxc.KeePassXC'], /password managers/],
      [['grant', 'galculator'], /unknown command 'grant'/],
    ];
    for (const [args, message] of cases) {
      const run = await gai(...args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr, message, args.join(' '));
    }
    assert.deepEqual(await new JsonFileAppPermissionStore(appPermissionsFile(env)).all(), {});
  });
});
