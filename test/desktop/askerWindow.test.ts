// A person types `gai click Apply` in a terminal (issue 19's "no misclick", found in the third
// session): the terminal is the active window and shows the request's own words, which OCR reads
// first. GAI, started from that terminal (xterm here, on the suite display), looks past it: the
// click lands on the app's Apply; a label only the command line shows is not found, and the
// answer says why.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AtspiAccessibility } from '../../src/platform/linux/atspi/atspiAccessibility';
import { DesktopBridge } from '../../src/platform/linux/desktopBridge';
import { BUILT_CLI } from './support/builtCli';
import { launchFixture, suiteDisplay, type Fixture } from './support/fixture';
import { delay, startProcess, stopProcess, type StartedProcess } from './support/realApps/appWindow';
import { missingPrograms } from './support/realApps/labelBoard';

const display = suiteDisplay();

describe('gai started from a terminal on the screen (xterm)', function () {
  this.timeout(120_000);
  let app: Fixture;
  let terminal: StartedProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'gai-asker-'));

  before(async function () {
    const missing = missingPrograms(['xterm']);
    if (missing.length > 0) {
      console.log(`      skipped: ${missing.join(', ')} not installed (node scripts/ensureDeps.mjs installs it)`);
      this.skip();
    }
    if (!existsSync(BUILT_CLI)) throw new Error('dist/cli.js is missing: npm test builds it before the suites');
    app = await launchFixture(display);
    // The display's session and accessibility buses are started here when no test did before: one
    // autolaunched by the gai run inside the xterm would end with the xterm, and with it every
    // later test's tree.
    const bridge = new DesktopBridge(display.env);
    await new AtspiAccessibility(display.env, {}, bridge).available();
    await bridge.dispose();
  });
  after(async () => {
    if (terminal) await stopProcess(terminal.child);
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('clicks the app\'s Apply, not the "Apply" of the command line in the active terminal; "Deploy", only typed there, is not found and the answer says why', async () => {
    const out = (name: string): string => join(dir, name);
    const gai = (label: string, file: string): string =>
      // The command line as the person's shell shows it, then GAI run from that shell.
      `printf '$ gai click ${label}\\n'; sleep 1; xdotool getactivewindow getwindowpid > ${out(`${file}.active`)} 2>&1; ` +
      `"${process.execPath}" "${BUILT_CLI}" click ${label} --json > ${out(file)} 2>&1; echo "exit $?" >> ${out(file)}`;
    const script = `${gai('Apply', 'apply')}; ${gai('Deploy', 'deploy')}; sleep 120`;
    // Right of the fixture (900x650 at 100,80), so neither covers the other.
    terminal = startProcess('xterm', ['-geometry', '70x12+1100+700', '-e', 'sh', '-c', script], { env: { ...display.env, XDG_CONFIG_HOME: dir }, stdio: ['ignore', 'ignore', 'pipe'] });
    const deadline = Date.now() + 90_000;
    while (!(existsSync(out('deploy')) && readFileSync(out('deploy'), 'utf8').includes('exit '))) {
      assert.equal(terminal.problem(), undefined, terminal.stderr());
      assert.ok(Date.now() < deadline, `gai did not finish in the terminal: ${existsSync(out('apply')) ? readFileSync(out('apply'), 'utf8') : 'nothing yet'}`);
      await delay(250);
    }
    const xtermPid = String(terminal.child.pid);
    assert.equal(readFileSync(out('apply.active'), 'utf8').trim(), xtermPid, 'the terminal was the active window when gai ran');
    const applied = readFileSync(out('apply'), 'utf8');
    assert.match(applied, /exit 0/, applied);
    const result = JSON.parse(applied.slice(0, applied.lastIndexOf('exit'))) as { success: boolean; data?: { point: { x: number; y: number } } };
    const button = app.widget('apply_button');
    const point = result.data!.point;
    assert.ok(point.x >= button.x && point.x <= button.x + button.width && point.y >= button.y && point.y <= button.y + button.height, `clicked at ${JSON.stringify(point)}, Apply is at ${JSON.stringify(button)}`);
    await app.waitFor((e) => e.event === 'click' && e.widget === 'apply_button');
    const deployed = readFileSync(out('deploy'), 'utf8');
    assert.doesNotMatch(deployed, /exit 0/, deployed);
    assert.match(deployed, /where GAI was asked from, is not searched: it shows the request itself/, deployed);
  });
});
