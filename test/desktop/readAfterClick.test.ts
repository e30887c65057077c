// A reading right after a click shows what the click did (issue 21's stale reading): galculator on
// the suite's display, the desktop wired as the one assembly wires it (its input noted through
// WatchedInput on an InputClock the reader waits on). Right after "=" is clicked, the screen is
// read at once, as a scripted model's next call does: the display must read 15, never the "8".
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDesktopServices, type DesktopServices } from '../../src/desktop/desktopServices';
import { InputClock } from '../../src/desktop/input/inputClock';
import { withWatchedInput } from '../../src/desktop/input/watchedInput';
import { createPlatformDesktop } from '../../src/platform/platformDesktop';
import { suiteDisplay } from './support/fixture';

describe('a screen reading right after a click shows its effect (galculator, real display)', function () {
  this.timeout(120_000);
  let calculator: ChildProcess | undefined;
  let home = '';
  let services: DesktopServices | undefined;

  before(async function () {
    const display = suiteDisplay();
    if (spawnSync('sh', ['-c', 'command -v galculator'], { env: display.env }).status !== 0) this.skip();
    home = mkdtempSync(join(tmpdir(), 'gai-read-after-'));
    const env: NodeJS.ProcessEnv = { ...display.env, XDG_CONFIG_HOME: home, GSETTINGS_BACKEND: 'memory' };
    delete env.AT_SPI_BUS_ADDRESS;
    delete env.NO_AT_BRIDGE;
    calculator = spawn('galculator', [], { env, stdio: 'ignore' });
    const inputs = new InputClock();
    // No one watches the person here: the gate only lets GAI's input through.
    const gate = { refusal: undefined, stopSignal: undefined, beginOwnInput: async () => {}, endOwnInput: async () => {} };
    services = createDesktopServices(withWatchedInput(createPlatformDesktop({ env: display.env }), gate, inputs), { inputs });
    const deadline = Date.now() + 30_000;
    while ((await services.locator.locate('=')).status !== 'found') {
      if (Date.now() > deadline) throw new Error('galculator did not show its "=" within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  after(async () => {
    if (calculator?.exitCode === null) calculator.kill('SIGTERM');
    await services?.desktop.ocr.dispose();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('three rounds of 7 + 8 =: each reading made at once after "=" reads 15', async () => {
    const desktop = services!.desktop;
    const click = async (label: string): Promise<void> => {
      const found = await services!.locator.locate(label);
      assert.ok(found.status === 'found', `${label}: ${JSON.stringify(found)}`);
      await desktop.input.click(found.point, 'left', 1);
    };
    for (let round = 1; round <= 3; round++) {
      for (const key of ['AC', '7', '+', '8']) await click(key);
      await services!.reader.read(); // the screen showing "8"
      await click('=');
      const after = await services!.reader.read();
      assert.match(after.analysis.fullText, /\b15\b/, `round ${round}: the reading right after "=" is ${JSON.stringify(after.analysis.fullText.slice(0, 200))}`);
    }
  });
});
