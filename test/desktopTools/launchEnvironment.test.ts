import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretRedactor } from '../../src/common/redact';
import { accessibleAppArgs, withGtkModules } from '../../src/platform/linux/accessibleLaunch';
import { LinuxAppLauncher } from '../../src/platform/linux/appLaunchers';

// An app started through a desktop entry (as launch_app does) gets our environment without the
// model providers' keys: the entry's program writes the environment it got to a file.

const KEY = 'sk-ant-api03-launchEnvTest0123456789abcdefABCDEF';
const FLAG_KEY = 'flag-given-key-0123456789abcdef';

async function waitForFile(path: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8');
      if (text.includes('GAI_ENV_DUMP_DONE=1')) return text;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the launched program never wrote ${path}`);
}

describe('launched apps\' environment (Linux launcher)', function () {
  this.timeout(15_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gai-launch-env-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a desktop entry\'s program gets no provider key and no variable holding a registered key', async () => {
    const out = join(dir, 'env.txt');
    const script = join(dir, 'dump-env');
    // Written then renamed, so a half-written file is never read.
    writeFileSync(script, `#!/bin/sh\n{ env; echo GAI_ENV_DUMP_DONE=1; } > "${out}.tmp" && mv "${out}.tmp" "${out}"\n`);
    chmodSync(script, 0o755);
    mkdirSync(join(dir, 'share', 'applications'), { recursive: true });
    writeFileSync(join(dir, 'share', 'applications', 'gai-env-dump.desktop'), `[Desktop Entry]\nType=Application\nName=Env Dump\nExec=${script}\n`);

    const redactor = new SecretRedactor({ secrets: [FLAG_KEY] });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      XDG_DATA_HOME: join(dir, 'nothing'),
      XDG_DATA_DIRS: join(dir, 'share'),
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_AUTH_TOKEN: 'auth-token-0123456789',
      OPENAI_API_KEY: 'sk-proj-launchEnvTest0123456789',
      GEMINI_API_KEY: 'gemini-0123456789',
      GOOGLE_API_KEY: 'AIzaSyA1234567890abcdefghijklmnopqrstuv',
      AZURE_OPENAI_API_KEY: 'azure-0123456789',
      SOME_TOOL_CONFIG: `token=${FLAG_KEY}`,
      GAI_KEEP_ME: 'kept',
    };
    const launched = await new LinuxAppLauncher(env, (value) => redactor.containsKnownSecret(value)).launch('Env Dump');
    assert.match(launched.method, /desktop entry gai-env-dump\.desktop/);

    const seen = await waitForFile(out);
    const names = seen.split('\n').map((line) => line.split('=')[0]);
    for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'AZURE_OPENAI_API_KEY', 'SOME_TOOL_CONFIG']) {
      assert.ok(!names.includes(name), `${name} reached the app:\n${seen}`);
    }
    assert.ok(!seen.includes(KEY) && !seen.includes(FLAG_KEY), seen);
    assert.ok(seen.includes('GAI_KEEP_ME=kept'), 'the rest of the environment is passed on');
  });
  it('turns on the toolkits\' accessibility: GTK bridge not disabled, Qt and Chromium switches set', async () => {
    const out = join(dir, 'env.txt');
    // Named like Chromium's executable: it gets the renderer accessibility switch first.
    const script = join(dir, 'chromium');
    writeFileSync(script, `#!/bin/sh\n{ env; echo "GAI_ARGS=$*"; echo GAI_ENV_DUMP_DONE=1; } > "${out}.tmp" && mv "${out}.tmp" "${out}"\n`);
    chmodSync(script, 0o755);
    mkdirSync(join(dir, 'share', 'applications'), { recursive: true });
    writeFileSync(join(dir, 'share', 'applications', 'gai-browser.desktop'), `[Desktop Entry]\nType=Application\nName=Gai Browser\nExec=${script} --new-window %U\n`);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      XDG_DATA_HOME: join(dir, 'nothing'),
      XDG_DATA_DIRS: join(dir, 'share'),
      NO_AT_BRIDGE: '1',
      // Another session's a11y bus (no session bus named here): the app must not register there.
      AT_SPI_BUS_ADDRESS: 'unix:path=/nonexistent/other-session-bus',
    };
    await new LinuxAppLauncher(env).launch('Gai Browser');
    const seen = await waitForFile(out);
    const lines = seen.split('\n');
    assert.ok(lines.includes('ACCESSIBILITY_ENABLED=1'), seen);
    assert.ok(lines.includes('QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1'), seen);
    assert.ok(lines.includes('GTK_MODULES=gail:atk-bridge'), seen);
    assert.ok(!lines.some((line) => line.startsWith('NO_AT_BRIDGE=')), seen);
    assert.ok(!lines.some((line) => line.startsWith('AT_SPI_BUS_ADDRESS=')), seen);
    assert.ok(lines.includes('GAI_ARGS=--force-renderer-accessibility --new-window'), seen);
  });

  it('adds GTK 2\'s accessibility modules to the person\'s own, once', () => {
    assert.equal(withGtkModules(undefined, ['gail', 'atk-bridge']), 'gail:atk-bridge');
    assert.equal(withGtkModules('canberra-gtk-module', ['gail', 'atk-bridge']), 'canberra-gtk-module:gail:atk-bridge');
    assert.equal(withGtkModules('atk-bridge::gail', ['gail', 'atk-bridge']), 'atk-bridge:gail');
  });

  it('gives the renderer switch to Chromium and Electron executables only, once', () => {
    assert.deepEqual(accessibleAppArgs('/usr/bin/chromium', ['%U']), ['--force-renderer-accessibility', '%U']);
    assert.deepEqual(accessibleAppArgs('/usr/share/code/code', []), ['--force-renderer-accessibility']);
    assert.deepEqual(accessibleAppArgs('google-chrome-stable', ['--force-renderer-accessibility']), ['--force-renderer-accessibility']);
    assert.deepEqual(accessibleAppArgs('/usr/bin/mousepad', ['a.txt']), ['a.txt']);
    assert.deepEqual(accessibleAppArgs('/usr/bin/chromiumish', []), []);
  });
});
