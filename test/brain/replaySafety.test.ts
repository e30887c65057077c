// Replays obey the person: steps of a path learned here replay without asking, steps of an
// imported path ask until the person confirms it, a consequential step asks every time, and a
// step that did not do what it did when learned stops the replay there.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { BrainStore } from '../../src/navigation/store/brainStore';
import type { BrainDocument, PathAction } from '../../src/navigation/store/brainTypes';
import { NavigationBrain } from '../../src/navigation/navigationBrain';
import { consequentialLabel, DEFAULT_CONSEQUENTIAL_LABELS } from '../../src/navigation/routes/replayApproval';
import { isTrusted } from '../../src/navigation/routes/pathTrust';
import { yesApproval } from '../../src/cli/terminalApproval';
import type { ToolResult } from '../../src/tools/toolTypes';
import { toolInput } from '../../src/common/schema';
import { ToolBase } from '../../src/tools/toolBase';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime, type ApprovalDecision, type ApprovalRequest } from '../../src/runtime/toolRuntime';
import { PAGES, PagesDesktop, ScriptedLearner } from './support/inMemoryPages';

const clickSchema = toolInput({ text: Type.Optional(Type.String()), x: Type.Optional(Type.Number()), y: Type.Optional(Type.Number()) });

/** The replay's click: presses a button of the in-memory app through a real runtime. */
class PagesClickTool extends ToolBase<typeof clickSchema> {
  readonly name = 'click';
  readonly description = 'Press a button of the in-memory app.';
  readonly inputSchema = clickSchema;
  readonly risk = 'action' as const;
  constructor(private readonly app: PagesDesktop) {
    super();
  }
  execute(input: Static<typeof clickSchema>): Promise<ToolResult> {
    return this.app.callTool({ name: 'click', input });
  }
}

describe('replay safety (in-memory desktop, real runtime)', function () {
  this.timeout(20_000);
  let dir: string;
  let app: PagesDesktop;
  let asked: ApprovalRequest[];
  let answer: ApprovalDecision;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gai-replay-safety-'));
    app = new PagesDesktop(structuredClone(PAGES));
    asked = [];
    answer = 'approve';
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A brain whose replays run through a runtime that asks for actions (the default rules). */
  async function brainWith(plans: string[][] = []): Promise<NavigationBrain> {
    const registry = new ToolRegistry();
    registry.register(new PagesClickTool(app));
    const runtime = new ToolRuntime(registry, {
      autoApprove: ['read'],
      requestApproval: async (request) => {
        asked.push(request);
        return answer;
      },
    });
    const { store } = await BrainStore.open(dir);
    let n = 0;
    return new NavigationBrain({
      store,
      services: app.services,
      callTool: (call, signal, options) => runtime.execute({ id: `r${++n}`, name: call.name, input: call.input }, signal, {}, options),
      learner: new ScriptedLearner(app, plans),
      settleTimeoutMs: 200,
    });
  }

  it('a path learned here replays without asking again', async () => {
    const brain = await brainWith([['Settings', 'Network']]);
    assert.equal((await brain.navigateTo('Network settings')).how, 'learned');
    app.show('home');
    app.presses = [];
    const replay = await brain.navigateTo('Network settings');
    assert.equal(replay.how, 'replayed', replay.message);
    assert.deepEqual(asked, []);
    assert.deepEqual(app.presses, ['Settings', 'Network']);
  });

  it('an imported path asks for every step, and a denied step is not run', async () => {
    const brain = await brainWith([['Settings', 'Network']]);
    await brain.navigateTo('Network settings');
    const exported = brain.store.export();
    rmSync(join(dir, 'brain.json'));
    const imported = await BrainStore.open(dir);
    await imported.store.import(exported, { mode: 'replace' });
    assert.equal(isTrusted(imported.store.document.paths[0]!), false);

    const { learner: _learner, ...replayOnly } = brainDeps(brain);
    const fresh = new NavigationBrain({ ...replayOnly, store: imported.store });
    app.show('home');
    app.presses = [];
    answer = 'deny';
    const replay = await fresh.navigateTo('Network settings');
    assert.equal(replay.success, false);
    assert.deepEqual(app.presses, [], 'nothing was pressed');
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.kind, 'untrusted-path');
    assert.match(asked[0]?.note ?? '', /step 1 of 2 \(click "Settings"\).*imported and not confirmed/);

    asked = [];
    answer = 'approve';
    app.show('home');
    assert.equal((await fresh.navigateTo('Network settings')).how, 'replayed');
    assert.equal(asked.length, 2, 'each step asked');

    await imported.store.confirmPath(imported.store.document.paths[0]!.id);
    asked = [];
    app.show('home');
    assert.equal((await fresh.navigateTo('Network settings')).how, 'replayed');
    assert.equal(asked.length, 0, 'a confirmed path replays like a learned one');
  });

  it('a consequential step asks on every replay, naming it, even on a path learned here', async () => {
    app.pages.settings!.buttons['Remove cache'] = 'network';
    const brain = await brainWith([['Settings', 'Remove cache']]);
    assert.equal((await brain.navigateTo('Network settings')).how, 'learned');
    app.show('home');
    app.presses = [];
    answer = 'deny';
    const replay = await brain.navigateTo('Network settings');
    assert.equal(replay.replayFailure?.step, 1, replay.message);
    assert.deepEqual(app.presses, ['Settings'], 'the harmless step ran, the consequential one did not');
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.kind, 'consequential');
    assert.match(asked[0]?.note ?? '', /step 2 of 2 \(click "Remove cache"\): "Remove" may not be undoable/);
  });

  it('knows consequential labels as whole words in any case, and the Delete key', () => {
    const click = (text: string): PathAction => ({ tool: 'click', input: { text } });
    assert.equal(consequentialLabel(click('Send now'), DEFAULT_CONSEQUENTIAL_LABELS), 'Send');
    assert.equal(consequentialLabel(click('SIGN OUT'), DEFAULT_CONSEQUENTIAL_LABELS), 'Sign out');
    assert.equal(consequentialLabel(click('Sender settings'), DEFAULT_CONSEQUENTIAL_LABELS), undefined);
    assert.equal(consequentialLabel(click('Undelete'), DEFAULT_CONSEQUENTIAL_LABELS), undefined);
    assert.equal(consequentialLabel({ tool: 'press_key', input: { key: 'Delete', modifiers: ['shift'] } }, DEFAULT_CONSEQUENTIAL_LABELS), 'Delete');
    assert.equal(consequentialLabel(click('Archive'), ['Archive']), 'Archive', 'configurable');
  });

  it('a step that changes nothing stops the replay there', async () => {
    const brain = await brainWith([['Settings', 'Network']]);
    await brain.navigateTo('Network settings');
    app.show('home');
    app.pages.home!.buttons.Settings = 'home'; // the button still exists but no longer does anything
    app.presses = [];
    const replay = await brain.navigateTo('Network settings');
    assert.equal(replay.replayFailure?.step, 0, replay.message);
    assert.match(replay.replayFailure?.reason ?? '', /did not change/);
    assert.deepEqual(app.presses.slice(0, 1), ['Settings'], 'nothing after the step that did nothing');
  });

  it('a step that leads to another screen than when it was learned stops the replay there', async () => {
    const brain = await brainWith([['Settings'], ['Network']]);
    await brain.navigateTo('Settings'); // makes the Settings node known
    app.show('home');
    const settings = brain.store.document.nodes.find((n) => n.label.includes('Settings'))!;
    // A three-step path whose first step was recorded as reaching Settings.
    await brain.store.update((draft) => {
      const path = draft.paths[0]!;
      path.actions = [{ tool: 'click', input: { text: 'Settings' }, reaches: settings.key }, { tool: 'click', input: { text: 'Network' } }];
      path.to = settings.key;
    });
    app.pages.home!.buttons.Settings = 'display'; // now opens Display, which also has buttons
    app.presses = [];
    answer = 'approve';
    const replay = await brain.navigateTo('Settings');
    assert.equal(replay.replayFailure?.step, 0, replay.message);
    assert.match(replay.replayFailure?.reason ?? '', /not "Pages — Settings" that this step led to/);
    assert.deepEqual(app.presses.slice(0, 1), ['Settings']);
  });

  it('the CLI --yes handler approves consequential steps but never an untrusted path without a terminal', async () => {
    const request = (kind?: ApprovalRequest['kind']): ApprovalRequest => ({ call: { id: '1', name: 'click', input: {} }, risk: 'action', summary: 'click', ...(kind ? { kind } : {}) });
    const handler = yesApproval(undefined);
    const signal = new AbortController().signal;
    assert.equal(await handler(request('consequential'), signal), 'approve');
    assert.equal(await handler(request('untrusted-path'), signal), 'deny');
    assert.equal(await yesApproval(async () => 'approve')(request('untrusted-path'), signal), 'approve', 'a terminal asks the person');
  });

  it('importing a newer copy of a local path makes it untrusted; a denied step leaves it so; repairing it here with approved steps trusts it again', async () => {
    const brain = await brainWith([['Settings', 'Network'], ['Display', 'Network panel']]);
    await brain.navigateTo('Network settings');
    const copy = structuredClone(brain.store.document) as BrainDocument;
    copy.paths[0]!.revision += 5;
    await brain.store.import(copy, { mode: 'merge' });
    assert.equal(isTrusted(brain.store.document.paths[0]!), false);
    const id = brain.store.document.paths[0]!.id;
    await brain.store.update((draft) => void (draft.paths = draft.paths.filter((p) => p.id === id)));
    // A denied step ends the navigation (issue 18): nothing is learned around the person's "no".
    app.show('home');
    answer = 'deny';
    const untouched = structuredClone(brain.store.document.paths);
    const denied = await brain.navigateTo('Network settings');
    assert.equal(denied.success, false);
    assert.equal(denied.denied?.length, 1);
    assert.deepEqual(brain.store.document.paths, untouched, 'no failure recorded, still untrusted');

    // Approved steps, one of which no longer works: the learner repairs from there.
    app.show('home');
    app.pages.settings!.buttons = { Display: 'display', Back: 'home' };
    answer = 'approve';
    const repaired = await brain.navigateTo('Network settings');
    assert.equal(repaired.how, 'repaired', repaired.message);
    assert.equal(brain.store.document.paths.length, 1);
    assert.equal(isTrusted(brain.store.document.paths[0]!), true);
  });
});

/** The parts of a brain's dependencies a second brain over another store can reuse. */
function brainDeps(brain: NavigationBrain): ConstructorParameters<typeof NavigationBrain>[0] {
  return (brain as unknown as { deps: ConstructorParameters<typeof NavigationBrain>[0] }).deps;
}
