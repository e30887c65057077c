// Brain labels on a real X display: an editor-like app with a menu bar (fixtures/editorApp.py),
// the real OCR and tools, the real @anthropic-ai/sdk against a scripted Messages API server.
// The screens learned are named after the window and the page's heading, never a menu word,
// and the editor with another tab open is the same node (the replay starts there, no model).
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NavigationBrain } from '../../src/navigation/navigationBrain';
import { NAVIGATION_PROMPT } from '../../src/navigation/learning/navigationLearner';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { openNavigationBrain } from '../../src/app/navigationAssembly';
import { observeScreen } from '../../src/navigation/recognition/screenObserver';
import { matchState } from '../../src/navigation/recognition/stateIdentifier';
import { resolveLlmConfig } from '../../src/model/llmConfig';
import { LlmManager } from '../../src/model/llmManager';
import { createModeProviders } from '../../src/model/providers/providerFactory';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { toolReply } from '../support/scriptedSteps';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { EditorApp } from './support/editorFixture';
import { suiteDisplay } from './support/fixture';

const display = suiteDisplay();
const MENU_WORD = /\b(?:File|Edit|View|Help|New|Open|Save|Quit|Undo|Cut|Copy|Paste|Zoom|About)\b/;

describe('brain labels on a real X display', function () {
  this.timeout(90_000);
  let rig: DesktopRig;
  let server: ScriptedMessagesServer;
  let app: EditorApp | undefined;
  let dir: string;

  before(async () => {
    rig = createDesktopRig(display.env);
    server = await ScriptedMessagesServer.start();
  });
  after(async () => {
    await server.close();
    await rig.dispose();
  });
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gai-brain-labels-'));
    app = await EditorApp.start(display, 'notes.txt');
    rig.services.reader.reset();
  });
  afterEach(async () => {
    await app?.stop();
    app = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function openBrain(): Promise<NavigationBrain> {
    const { brain } = await openNavigationBrain({
      dir,
      services: rig.services,
      hostRuntime: rig.runtime,
      tools: (models) => createDesktopTools(rig.services, { models }),
      createLlm: () => new LlmManager(createModeProviders(resolveLlmConfig({ provider: 'anthropic', baseUrl: server.baseUrl, apiKey: 'test' }, {})), { system: NAVIGATION_PROMPT }),
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    return brain;
  }

  it('learns a path in an app with a menu bar: screens named after the window and heading, and another editor tab is the same node', async () => {
    const brain = await openBrain();
    server.push(toolReply([{ name: 'click', input: { text: 'Settings' } }]), toolReply([{ name: 'finish_navigation', input: { success: true, summary: 'Editor settings shown.' } }]));
    const learned = await brain.navigateTo('Editor settings');
    assert.equal(learned.success, true, learned.message);
    assert.equal(learned.how, 'learned');
    assert.equal((await app!.viewAfter('settings'))?.view, 'settings');

    const path = brain.store.document.paths[0]!;
    const labelOf = (key: string) => brain.store.document.nodes.find((n) => n.key === key)?.label;
    const labels = brain.store.document.nodes.map((n) => n.label);
    console.log(`      labels: ${labels.map((l) => JSON.stringify(l)).join(', ')}`);
    assert.equal(labelOf(path.from), 'GAI Editor', 'the editor is named after the app, not the open file or a menu word');
    assert.equal(labelOf(path.to), 'GAI Editor — Editor settings');
    for (const label of labels) assert.doesNotMatch(label, MENU_WORD, `no label from a menu word: ${label}`);

    // Back in the editor with the other file's tab open: the same screen as notes.txt's.
    await app!.control('open main.py');
    const here = await brain.identifyCurrentNode();
    assert.equal(here.node.key, path.from, `main.py's tab identified as ${here.node.label} (${here.matchedBy}, ${here.similarity})`);
    assert.equal(here.isNew, false);

    // So the learned way starts here too: replayed without the model.
    const requests = server.requestCount;
    const replayed = await brain.navigateTo('Editor settings');
    assert.equal(replayed.how, 'replayed', replayed.message);
    assert.equal(server.requestCount, requests, 'no request reached the model server');
    assert.equal((await app!.viewAfter('settings'))?.view, 'settings');
  });
});

describe('brain labels of a real application (galculator)', function () {
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

  it('names galculator\'s screen "galculator", and with its Help menu open it is still that screen', async () => {
    configHome = mkdtempSync(join(tmpdir(), 'gai-galculator-'));
    const env: NodeJS.ProcessEnv = { ...display.env, XDG_CONFIG_HOME: configHome };
    delete env.AT_SPI_BUS_ADDRESS;
    calculator = spawn('galculator', [], { env, stdio: 'ignore' });
    const deadline = Date.now() + 20_000;
    while ((await rig.services.desktop.windows.activeWindow().catch(() => undefined))?.appName.toLowerCase() !== 'galculator') {
      if (Date.now() > deadline) throw new Error('galculator did not open');
      await new Promise((r) => setTimeout(r, 100));
    }
    // The pointer off the window: at the screen's centre it rests on a key and shows its tooltip.
    await rig.services.desktop.input.move({ x: 5, y: 5 });
    await new Promise((r) => setTimeout(r, 800)); // let it finish drawing
    const first = await observeScreen(rig.services);
    const main = matchState(first.reading, []);
    assert.equal(main.node.label.toLowerCase(), 'galculator');

    const opened = await rig.run('click', { text: 'Help' });
    assert.equal(opened.success, true, opened.error);
    await new Promise((r) => setTimeout(r, 500));
    const withMenu = (await observeScreen(rig.services)).reading;
    const again = matchState(withMenu, [main.node]);
    console.log(`      menu open: ${again.matchedBy} ${again.similarity.toFixed(2)}, lines ${JSON.stringify(withMenu.lines.slice(0, 6))}`);
    assert.equal(again.node.key, main.node.key, `with the Help menu open: ${again.node.label} (${again.matchedBy})`);
    await rig.run('press_key', { key: 'Escape' });
  });
});

describe('brain labels of a real editor (mousepad)', function () {
  this.timeout(90_000);
  let rig: DesktopRig;
  let editor: ChildProcess | undefined;
  let home: string | undefined;

  before(function () {
    if (spawnSync('sh', ['-c', 'command -v mousepad']).status !== 0) this.skip();
    rig = createDesktopRig(display.env);
  });
  after(async () => {
    editor?.kill('SIGTERM');
    if (home) rmSync(home, { recursive: true, force: true });
    await rig?.dispose();
  });

  it('mousepad with its other tab active is the same node, named after the editor', async function () {
    home = mkdtempSync(join(tmpdir(), 'gai-mousepad-'));
    const notes = join(home, 'notes.txt');
    const code = join(home, 'main.py');
    writeFileSync(notes, 'Buy milk and bread\nCall the plumber about the sink\nRead chapter three tonight\n');
    writeFileSync(code, 'import sys\n\ndef main():\n    print("hello world")\n\nmain()\n');
    const env: NodeJS.ProcessEnv = { ...display.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') };
    delete env.AT_SPI_BUS_ADDRESS;
    editor = spawn('mousepad', [notes, code], { env, stdio: 'ignore' });
    const titleOf = async () => (await rig.services.desktop.windows.activeWindow().catch(() => undefined))?.title ?? '';
    const deadline = Date.now() + 20_000;
    while (!/main\.py|notes\.txt/.test(await titleOf())) {
      if (Date.now() > deadline) throw new Error(`mousepad did not open (active: ${await titleOf()})`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await rig.services.desktop.input.move({ x: 5, y: 5 });
    await new Promise((r) => setTimeout(r, 800));
    const first = await observeScreen(rig.services);
    // The rule that keeps another tab the same screen starts at the tab strip; when OCR cannot
    // read mousepad's small tab labels there is no strip to start from (the fixture editor's
    // test covers the rule either way). Known limit: the editor's text then counts as the screen's.
    if (!first.reading.lines.some((line) => /notes\.txt|main\.py/.test(line))) {
      console.log(`      skipped: OCR read no tab name of mousepad (lines ${JSON.stringify(first.reading.lines)})`);
      this.skip();
    }
    const one = matchState(first.reading, []);
    // The other tab, clicked by its name (the active one's name is in the title).
    const inactive = /main\.py/.test(first.reading.windowTitle) ? 'notes.txt' : 'main.py';
    const switched = await rig.run('click', { text: inactive });
    assert.equal(switched.success, true, switched.error);
    await new Promise((r) => setTimeout(r, 800));
    const other = await observeScreen(rig.services);
    console.log(`      titles: ${first.reading.windowTitle} / ${other.reading.windowTitle}; label ${one.node.label}`);
    assert.notEqual(first.reading.windowTitle, other.reading.windowTitle, 'the other tab is active');
    const two = matchState(other.reading, [one.node]);
    assert.equal(two.node.key, one.node.key, `${two.matchedBy} ${two.similarity.toFixed(2)}; lines ${JSON.stringify(other.reading.lines)} vs ${JSON.stringify(first.reading.lines)}`);
    assert.doesNotMatch(one.node.label, /notes\.txt|main\.py/);
  });
});
