// Accessibility first (gai.input "accessibility", issue 22) on real apps: a GTK 3 calculator
// (galculator) and a Qt 5 one (speedcrunch's keypad) compute 7 + 8 through the click tool with no
// pointer movement and no focus taken: the person's pointer stays in its corner, the active
// window stays active and the element with the keyboard focus keeps it. Each approval said the
// pointer stays, each press was seen to take, and the app's display shows 15.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BBox } from '../../src/common/geometry';
import { createDesktopServices, type DesktopServices } from '../../src/desktop/desktopServices';
import { createPlatformDesktop } from '../../src/platform/platformDesktop';
import { ToolRuntime, type ApprovalDecision, type ApprovalRequest } from '../../src/runtime/toolRuntime';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { FIXTURE_PYTHON, suiteDisplay } from './support/fixture';
import { delay, run, type Placement } from './support/realApps/appWindow';
import { AtspiApp, type AtspiAppKind } from './support/realApps/atspiApps';
import { missingPrograms } from './support/realApps/labelBoard';

const display = suiteDisplay();
const CORNER = { x: 3, y: 1077 };
const QUIET_APP = path.resolve(__dirname, 'fixtures', 'gtkQuietApp.py');
/** speedcrunch's keypad needs about 620 px to show every key. */
const PLACEMENT: Partial<Record<AtspiAppKind, Placement>> = { speedcrunch: { x: 1296, y: 545, width: 622, height: 510 } };

/** Where xdotool says the pointer is. */
async function pointer(): Promise<{ x: number; y: number }> {
  const out = await run('xdotool', ['getmouselocation'], display.env);
  const match = /x:(\d+) y:(\d+)/.exec(out);
  return { x: Number(match?.[1]), y: Number(match?.[2]) };
}

/** The person's pointer in its corner, where no key is (--sync would wait forever when it is there already). */
async function park(): Promise<void> {
  await run('xdotool', ['mousemove', String(CORNER.x), String(CORNER.y)], display.env);
  for (let i = 0; i < 20 && (await pointer()).y !== CORNER.y; i++) await delay(50);
}

async function activeWindowId(): Promise<string> {
  return (await run('xdotool', ['getactivewindow'], display.env)).trim();
}

describe('accessibility first on real apps: the pointer stays and the focus too', function () {
  this.timeout(180_000);
  let services: DesktopServices;
  let runtime: ToolRuntime;
  const asked: ApprovalRequest[] = [];
  /** The person's answer when asked for the pointer after a press. */
  let pointerAnswer: ApprovalDecision = 'deny';

  before(async function () {
    const missing = missingPrograms(['galculator', 'speedcrunch', 'xdotool']);
    if (missing.length > 0) {
      console.log(`      skipped: ${missing.join(', ')} not installed (node scripts/ensureDeps.mjs installs them)`);
      this.skip();
    }
    services = createDesktopServices(createPlatformDesktop({ env: display.env }));
    if (!(await services.desktop.accessibility?.available())) {
      console.log('      skipped: AT-SPI cannot be read on this display');
      this.skip();
    }
    const registry = new ToolRegistry();
    for (const tool of createDesktopTools(services, { input: 'accessibility' })) registry.register(tool);
    runtime = new ToolRuntime(registry, { requestApproval: async (request) => (asked.push(request), request.target?.way === 'pointer-after-press' ? pointerAnswer : 'approve') });
  });

  after(async () => {
    await services?.desktop.ocr.dispose();
  });

  async function compute(kind: AtspiAppKind, readDisplay: (app: AtspiApp) => Promise<string>): Promise<void> {
    const app = await AtspiApp.start(kind, display.env, PLACEMENT[kind]);
    try {
      // A one-character label is clicked only in the active window (the locator's rule).
      await app.activate();
      await park();
      const active = await activeWindowId();
      const focused = await services.desktop.accessibility!.focusedElement!();
      asked.length = 0;
      for (const label of ['7', '+', '8', '=']) {
        const { result } = await runtime.executeWithRecovery({ id: `${kind}-${label}`, name: 'click', input: { text: label } }, new AbortController().signal);
        assert.equal(result.success, true, `${kind} ${label}: ${result.error}`);
        const data = result.data as { via?: string; changed?: boolean };
        assert.equal(data.via, 'accessibility', `${kind} ${label}: ${result.observation}`);
        assert.equal(data.changed, true, `${kind} ${label}: the press showed no effect (${result.observation})`);
      }
      assert.equal(asked.length, 4);
      for (const request of asked) assert.match(request.summary, /through accessibility \(the pointer stays\)$/, request.summary);
      assert.deepEqual(await pointer(), CORNER, 'the pointer stayed where the person left it');
      assert.equal(await activeWindowId(), active, 'the active window stayed active');
      assert.deepEqual(await services.desktop.accessibility!.focusedElement!(), focused, 'the keyboard focus stayed on the element that had it');
      let shown = '';
      for (let i = 0; i < 30 && !/\b15\b/.test(shown); i++) {
        shown = await readDisplay(app);
        if (!/\b15\b/.test(shown)) await delay(150);
      }
      assert.match(shown, /\b15\b/, `${kind} shows the sum of the keys pressed`);
    } finally {
      await app.stop();
    }
  }

  it('GTK 3: galculator computes 7 + 8 = 15', async () => {
    await compute('galculator', async () => {
      const elements = await services.desktop.accessibility!.elements({ activeWindowOnly: false, fresh: true });
      return elements.find((e) => e.app?.toLowerCase().includes('galculator') && e.role === 'text' && e.text)?.text?.trim() ?? '';
    });
  });

  it('a press that shows nothing (a GTK button drawn alike in every state) asks before the pointer: a no leaves the pointer in its corner, a yes clicks', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gai-quiet-'));
    const log = path.join(dir, 'events.jsonl');
    const env: NodeJS.ProcessEnv = { ...display.env };
    delete env.AT_SPI_BUS_ADDRESS;
    delete env.NO_AT_BRIDGE;
    const app = spawn(FIXTURE_PYTHON, [QUIET_APP, '--log', log], { env, stdio: 'ignore' });
    const events = (): Array<{ event: string; box?: BBox }> => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { event: string; box?: BBox }) : []);
    const clicks = (): number => events().filter((e) => e.event === 'click').length;
    try {
      let box: BBox | undefined;
      for (let i = 0; i < 150 && !box; i++, await delay(100)) box = events().find((e) => e.event === 'ready')?.box;
      assert.ok(box, 'the quiet app came up');
      await delay(300);
      await park();
      asked.length = 0;
      pointerAnswer = 'deny';
      const refused = (await runtime.executeWithRecovery({ id: 'quiet-1', name: 'click', input: { text: 'Copy link' } }, new AbortController().signal)).result;
      assert.deepEqual(asked.map((r) => r.target?.way), ['accessibility', 'pointer-after-press']);
      assert.match(asked[1]!.summary, /with the pointer \(pressing it through accessibility changed nothing\)$/);
      assert.equal(refused.code, 'DENIED', refused.observation);
      assert.match(refused.observation, /Did NOT take: pressing "Copy link" through its accessibility action "click" changed nothing; the pointer was not used/);
      assert.deepEqual(await pointer(), CORNER, 'the pointer was not used');
      // The press reached the app, though nothing showed it: the limit of judging by what is seen.
      for (let i = 0; i < 20 && clicks() < 1; i++) await delay(50);
      assert.equal(clicks(), 1);

      asked.length = 0;
      pointerAnswer = 'approve';
      const clicked = (await runtime.executeWithRecovery({ id: 'quiet-2', name: 'click', input: { text: 'Copy link' } }, new AbortController().signal)).result;
      assert.equal(clicked.success, true, clicked.error);
      assert.equal(asked.length, 2);
      assert.match(clicked.observation, /^Clicked "Copy link" at \(\d+, \d+\) with the pointer, after its accessibility press changed nothing/);
      const at = await pointer();
      assert.ok(at.x >= box.x && at.x < box.x + box.width && at.y >= box.y && at.y < box.y + box.height, `the pointer clicked the button: ${JSON.stringify(at)} in ${JSON.stringify(box)}`);
      for (let i = 0; i < 20 && clicks() < 3; i++) await delay(50);
      assert.equal(clicks(), 3, 'the second call pressed once through the tree, then clicked once with the pointer');
    } finally {
      app.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Qt 5: speedcrunch\'s keypad computes 7 + 8 = 15', async () => {
    await compute('speedcrunch', async (app) => {
      // Its result list is drawn text: read the window's pixels.
      const reading = await services.reader.read({ region: app.placement });
      return reading.analysis.fullText;
    });
  });
});
