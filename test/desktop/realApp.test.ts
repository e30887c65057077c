// The click tool end to end on a real GTK application from Debian (galculator): labels found
// by OCR or, for the glyphs OCR cannot place, through the accessibility tree.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { suiteDisplay } from './support/fixture';

const display = suiteDisplay();

describe('click by text on a real application (galculator)', function () {
  this.timeout(90_000);
  let rig: DesktopRig;
  let calculator: ChildProcess | undefined;
  let configHome: string | undefined;

  before(function () {
    if (spawnSync('sh', ['-c', 'command -v galculator']).status !== 0) this.skip();
    rig = createDesktopRig(display.env);
  });
  after(async () => {
    calculator?.kill('SIGTERM');
    if (configHome) rmSync(configHome, { recursive: true, force: true });
    await rig?.dispose();
  });

  it('computes 7 + 2 = by clicking the buttons by their labels', async () => {
    configHome = mkdtempSync(path.join(tmpdir(), 'gai-galculator-'));
    const env: NodeJS.ProcessEnv = { ...display.env, XDG_CONFIG_HOME: configHome };
    delete env.AT_SPI_BUS_ADDRESS;
    calculator = spawn('galculator', [], { env, stdio: 'ignore' });
    const deadline = Date.now() + 20_000;
    while ((await rig.services.desktop.windows.activeWindow().catch(() => undefined))?.appName.toLowerCase() !== 'galculator') {
      if (Date.now() > deadline) throw new Error('galculator did not open');
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 800)); // let it finish drawing and register
    const sources: string[] = [];
    for (const label of ['7', '+', '2', '=']) {
      const result = await rig.run('click', { text: label });
      assert.equal(result.success, true, `${label}: ${result.error}`);
      sources.push(`${label}:${(result.data as { source: string }).source}`);
      await new Promise((r) => setTimeout(r, 150));
    }
    const tree = rig.services.desktop.accessibility!;
    const shown = (await tree.elements()).map((e) => e.text ?? '').join(' ');
    assert.match(shown, /\b9\b/, `calculator shows ${shown} (clicked ${sources.join(', ')})`);
  });
});
