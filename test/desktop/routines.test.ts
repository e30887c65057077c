// Record Steps on real apps (issue 23): a scripted person does three tasks in galculator and
// mousepad while the real X11 recorder watches; the routines kept are checked step by step,
// replayed with other parameter values without a model (the effect read from the app or the
// disk), and a replay whose anchor is gone stops with its reason and touches nothing.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { openNavigationBrain } from '../../src/app/navigationAssembly';
import { createDesktopServices, type DesktopServices } from '../../src/desktop/desktopServices';
import type { NavigationBrain } from '../../src/navigation/navigationBrain';
import type { RoutineRunReport } from '../../src/navigation/routines/routinePlayer';
import type { Routine, RoutineStep } from '../../src/navigation/store/routineTypes';
import { createPlatformDesktop } from '../../src/platform/platformDesktop';
import { createPlatformRecorder } from '../../src/platform/platformRecorder';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { BUILT_CLI } from './support/builtCli';
import { suiteDisplay } from './support/fixture';
import { delay, run } from './support/realApps/appWindow';
import { missingPrograms } from './support/realApps/labelBoard';
import {
  CALCULATOR_KEYS, calculatorDisplay, calculatorScene, recordScene, replaceScene, saveAsScene, SceneHome, ScriptedPerson, startScene,
  WORDS_TEXT, type RoutineScene, type SceneApp, type SceneContext,
} from './support/routineScenes';

const display = suiteDisplay();
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

async function pointer(): Promise<string> {
  return (await run('xdotool', ['getmouselocation'], display.env)).replace(/ window:\d+/, '').trim();
}

function clickTargets(routine: Routine): Array<[string | undefined, string | undefined]> {
  return routine.steps.filter((s) => s.kind === 'click').map((s) => [s.anchors.element?.role, s.anchors.element?.name]);
}

function kinds(steps: readonly RoutineStep[]): string[] {
  return steps.map((s) => (s.kind === 'key' ? `key ${[...s.modifiers, s.key].join('+')}` : s.kind === 'type' ? `type ${s.text ?? '(secret)'}` : s.kind));
}

function explain(report: RoutineRunReport): string {
  return report.steps.map((s) => `${s.index + 1}. ${s.action}: ${s.ok ? 'ok' : 'FAILED'} via ${s.via ?? '-'}: ${s.observation}`).join('\n');
}

describe('routines recorded from the person and replayed without a model (real apps)', function () {
  this.timeout(240_000);
  let services: DesktopServices;
  let brain: NavigationBrain;
  let brainDir: string;
  const person = new ScriptedPerson(display.env);
  let home: SceneHome;
  let app: SceneApp | undefined;

  before(async function () {
    const missing = missingPrograms(['galculator', 'mousepad', 'xdotool']);
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
    for (const tool of createDesktopTools(services)) registry.register(tool);
    const runtime = new ToolRuntime(registry, { autoApprove: ['read', 'action', 'system'] });
    brainDir = mkdtempSync(path.join(tmpdir(), 'gai-routines-brain-'));
    ({ brain } = await openNavigationBrain({ dir: brainDir, services, hostRuntime: runtime, tools: () => createDesktopTools(services), logger: quiet, recorder: createPlatformRecorder(display.env) }));
  });
  after(async () => {
    await services?.desktop.ocr.dispose();
    if (brainDir) rmSync(brainDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    home = new SceneHome();
  });
  afterEach(async () => {
    await app?.stop();
    app = undefined;
    home.dispose();
  });

  async function recorded(scene: RoutineScene): Promise<{ routine: Routine; context: SceneContext }> {
    app = await startScene(scene, display.env, home);
    const context = { home, app, services };
    const { routine, recording } = await recordScene(brain, scene, context, person);
    assert.deepEqual(recording.warnings, [], 'the recorder had nothing to warn about');
    assert.equal(recording.skipped, 0);
    console.log(`      ${routine.name}: ${recording.events} events, anchored in ${Math.round(Math.max(...recording.anchorMs))} ms at most\n        ${kinds(routine.steps).join(' · ')}`);
    if (process.env.GAI_ROUTINE_DEBUG) console.log(recording.anchorMs.map(Math.round).join(' '));
    if (process.env.GAI_ROUTINE_DEBUG) console.log(JSON.stringify(routine.steps.map((s) => ({ ...s, anchors: { ...s.anchors, crop: undefined } })), null, 1));
    return { routine, context };
  }

  async function replay(scene: RoutineScene, context: SceneContext, round: number): Promise<RoutineRunReport> {
    const values = await scene.prepare(context, round);
    const report = await brain.routines.run(scene.name, values);
    assert.equal(report.ok, true, `the replay stopped: ${report.reason}\n${explain(report)}`);
    assert.equal(report.modelCalls, 0);
    assert.equal(await scene.verify(context, values), undefined, explain(report));
    return report;
  }

  it('galculator: the keys clicked are steps anchored on their elements; the replay computes 42 again; without the keys it stops and clicks nothing', async () => {
    const { routine, context } = await recorded(calculatorScene);
    assert.deepEqual(kinds(routine.steps), CALCULATOR_KEYS.map(() => 'click'));
    assert.deepEqual(clickTargets(routine), CALCULATOR_KEYS.map((key) => ['toggle button', key]));
    assert.ok(routine.steps.every((s) => s.anchors.window?.app === 'Galculator'), JSON.stringify(routine.steps.map((s) => s.anchors.window)));
    assert.deepEqual(routine.parameters, []);
    assert.equal(await calculatorDisplay(services), '42', 'the person computed 42');

    await replay(calculatorScene, context, 0);

    // Paper mode has no keys: the replay must stop at the first one and leave the app alone.
    await context.app.activate();
    await run('xdotool', ['key', 'ctrl+p'], display.env);
    await context.app.waitFor(async () => !(await context.app.seen()).some((e) => e.name === 'AC'), 'paper mode (no keys)');
    await delay(800);
    const before = { seen: JSON.stringify(await context.app.seen()), pointer: await pointer() };
    assert.ok(!before.seen.includes('"AC"'), 'paper mode shows no AC key');
    const stopped = await brain.routines.run(calculatorScene.name, {});
    assert.equal(stopped.ok, false, explain(stopped));
    assert.equal(stopped.failedStep, 0);
    assert.equal(stopped.modelCalls, 0);
    assert.match(stopped.reason ?? '', /^step 1 \(click "AC".*\): Not done: no toggle button "AC" in the tree of "Galculator"/);
    assert.equal(stopped.steps.length, 1, 'nothing after the failed step ran');
    assert.deepEqual({ seen: JSON.stringify(await context.app.seen()), pointer: await pointer() }, before, 'the pointer and the app are as they were');

    // The window closed: the step says so, after waiting a little for one to appear.
    await context.app.stop();
    app = undefined;
    const gone = await brain.routines.run(calculatorScene.name, {});
    assert.equal(gone.ok, false);
    assert.match(gone.reason ?? '', /no window of "Galculator" is open/);
    assert.equal(await pointer(), before.pointer, 'the pointer did not move');
  });

  it('mousepad: Find and Replace with two parameters made of the typed texts; a replay replaces bird with fish and saves', async () => {
    const { routine, context } = await recorded(replaceScene);
    assert.deepEqual(kinds(routine.steps), ['click', 'click', 'type {find}', 'click', 'type {replace}', 'click', 'click', 'key ctrl+s']);
    const [menu, item, find, field, , replace, close] = routine.steps;
    assert.deepEqual(menu?.anchors.element && [menu.anchors.element.role, menu.anchors.element.name], ['menu', 'Search']);
    assert.deepEqual(item?.anchors.element && [item.anchors.element.role, item.anchors.element.name], ['menu item', 'Find and Replace...']);
    // The item was in the open Search menu (a popup): the replay clicks it only in one, and the menu's own click was not.
    assert.deepEqual([menu?.anchors.window?.popup, item?.anchors.window?.popup], [undefined, true]);
    assert.equal(find?.anchors.element?.role, 'text', 'the find text went to a text field');
    // Typed into the dialog: a replay types only into a window of that title (its click may not have opened it).
    assert.deepEqual(find?.anchors.window, { app: 'Mousepad', title: 'Find and Replace', dialog: true });
    assert.equal(field?.anchors.window?.title, 'Find and Replace');
    // Unnamed, like the find field: it is placed by the two texts nearest to it.
    assert.deepEqual([field?.anchors.element?.role, field?.anchors.label, field?.anchors.landmarks.length], ['text', undefined, 2], JSON.stringify(field?.anchors));
    assert.deepEqual(replace?.anchors.element && [replace.anchors.element.role, replace.anchors.element.name, replace.anchors.label], ['push button', 'Replace All', 'Replace All']);
    assert.deepEqual(close?.anchors.element?.name, 'Close');
    assert.deepEqual(routine.parameters.map((p) => [p.name, p.default]), [['find', 'cat'], ['replace', 'dog']]);
    assert.equal(readFileSync(home.file('animals.txt'), 'utf8'), WORDS_TEXT.split('cat').join('dog'), 'the person replaced and saved');

    await replay(replaceScene, context, 0); // bird → fish
    assert.match(readFileSync(home.file('animals.txt'), 'utf8'), /the fish met a fish/);
  });

  it('mousepad: Save As through the GTK file chooser, the name a parameter and the folder from its sidebar; the replay saves another name there', async () => {
    const { routine, context } = await recorded(saveAsScene);
    assert.deepEqual(kinds(routine.steps), ['key ctrl+shift+s', 'key ctrl+a', 'type {name}.txt', 'click', 'click']);
    const [, , , place, save] = routine.steps;
    assert.equal(place?.anchors.element?.name ?? place?.anchors.label, 'Reports', JSON.stringify(place?.anchors));
    assert.deepEqual(save?.anchors.element && [save.anchors.element.role, save.anchors.element.name], ['push button', 'Save']);
    assert.deepEqual(routine.parameters.map((p) => [p.name, p.default]), [['name', 'march-report']]);
    assert.ok(existsSync(path.join(home.reports, 'march-report.txt')), 'the person saved into Reports');

    // The document is in Reports now, so the chooser opens there.
    await replay(saveAsScene, context, 0);
    assert.deepEqual(readdirSync(home.reports).sort(), ['march-report.txt', 'report-1.txt']);
    // From a document elsewhere, with Reports no longer empty: picking Reports with a name typed
    // opens the name entry's completion list, which would take the Save click and only close.
    await saveAsScene.startElsewhere!(context);
    const second = await replay(saveAsScene, context, 1);
    assert.match(second.steps[4]!.observation, /popup of the app closed with Escape first/, explain(second));
    assert.deepEqual(readdirSync(home.reports).sort(), ['march-report.txt', 'report-1.txt', 'report-2.txt']);

    // Its window closed: the first step (a key for mousepad) stops, and nothing is saved.
    await context.app.stop();
    app = undefined;
    const gone = await brain.routines.run(saveAsScene.name, { name: 'never' });
    assert.equal(gone.ok, false);
    assert.match(gone.reason ?? '', /^step 1 \(press ctrl\+shift\+s.*no window of "Mousepad" is open/);
    assert.deepEqual(readdirSync(home.reports).sort(), ['march-report.txt', 'report-1.txt', 'report-2.txt']);
  });

  it('through the CLI: gai record keeps the routine with --param, gai run --param replays it with zero model calls', async () => {
    assert.ok(existsSync(BUILT_CLI), 'dist/cli.js is built before the suites');
    app = await startScene(replaceScene, display.env, home);
    const context = { home, app, services };
    const cliHome = mkdtempSync(path.join(tmpdir(), 'gai-routines-cli-'));
    const env = { ...display.env, XDG_CONFIG_HOME: path.join(cliHome, 'config'), XDG_DATA_HOME: path.join(cliHome, 'data'), ANTHROPIC_API_KEY: '' };
    const brainArgs = ['--brain-dir', path.join(cliHome, 'brain')];
    try {
      const child = spawn(process.execPath, [BUILT_CLI, 'record', 'Replace by CLI', '--param', 'find=cat', '--param', 'replace=dog', '--json', ...brainArgs], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
      for (let i = 0; i < 200 && !/Recording "Replace by CLI"/.test(stderr); i++) await delay(100);
      assert.match(stderr, /Recording "Replace by CLI"/);
      await person.pause();
      await replaceScene.perform(person, context);
      await delay(1_200);
      child.stdin.end('\n');
      assert.equal(await exited, 0, stderr);
      const kept = JSON.parse(stdout) as { routine: Routine };
      assert.deepEqual(kinds(kept.routine.steps), ['click', 'click', 'type {find}', 'click', 'type {replace}', 'click', 'click', 'key ctrl+s']);
      assert.match(stderr, /recorded: click "Replace All" \(push button, Mousepad\)/);

      const values = await replaceScene.prepare(context, 3);
      const ran = await new Promise<{ code: number; out: string; err: string }>((resolve) => {
        const args = [BUILT_CLI, 'run', 'Replace by CLI', '--param', `find=${values.find}`, '--param', `replace=${values.replace}`, '--yes', '--json', ...brainArgs];
        const runChild = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        runChild.stdout.on('data', (d: Buffer) => (out += d.toString()));
        runChild.stderr.on('data', (d: Buffer) => (err += d.toString()));
        runChild.once('exit', (code) => resolve({ code: code ?? -1, out, err }));
      });
      assert.equal(ran.code, 0, `${ran.out}\n${ran.err}`);
      const report = JSON.parse(ran.out) as RoutineRunReport;
      assert.equal(report.ok, true, explain(report));
      assert.equal(report.modelCalls, 0);
      assert.equal(await replaceScene.verify(context, values), undefined, explain(report));
    } finally {
      rmSync(cliHome, { recursive: true, force: true });
    }
  });
});
