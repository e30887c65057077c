// Navigate To says which step is under way: the replayer calls onStepStart before each step
// (not only onStep after it), and the host's line reads "Step 2 of 3: click "Network"".
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrainStore } from '../../src/navigation/store/brainStore';
import { NavigationBrain } from '../../src/navigation/navigationBrain';
import type { ReplayStep } from '../../src/navigation/routes/pathReplayer';
import { PAGES, PagesDesktop, ScriptedLearner } from '../brain/support/inMemoryPages';
import { replayPath, type StepStart } from '../../src/navigation/routes/pathReplayer';
import type { ToolInvocation } from '../../src/navigation/routes/pathActions';
import { stepProgressText } from '../../src/navigation/navigationBrain';
import { ToolResults } from '../../src/tools/toolResult';
import { clickText, pathFor } from '../brain/support/brainFixtures';

describe('replay progress (Navigate To steps)', () => {
  const path = pathFor({ id: 'to-network', from: 'app::a', to: 'app::b', actions: [clickText('Settings'), clickText('Network'), clickText('Wi-Fi')] });
  const settle = (): Promise<void> => Promise.resolve();

  it('announces each step before its tool runs, with its index and the path length', async () => {
    const log: string[] = [];
    const callTool = (call: ToolInvocation): Promise<ReturnType<typeof ToolResults.success>> => {
      log.push(`run ${String(call.input.text)}`);
      return Promise.resolve(ToolResults.success('ok'));
    };
    const starts: StepStart[] = [];
    const replay = await replayPath(path, {
      callTool,
      settle,
      signal: new AbortController().signal,
      onStepStart: (start) => {
        starts.push(start);
        log.push(stepProgressText(start.index, start.total, start.action));
      },
    });
    assert.equal(replay.ok, true);
    assert.deepEqual(log, [
      'Step 1 of 3: click "Settings"',
      'run Settings',
      'Step 2 of 3: click "Network"',
      'run Network',
      'Step 3 of 3: click "Wi-Fi"',
      'run Wi-Fi',
    ]);
    assert.deepEqual(starts.map((s) => [s.pathId, s.index, s.total]), [['to-network', 0, 3], ['to-network', 1, 3], ['to-network', 2, 3]]);
  });

  it('stops announcing at the step that failed', async () => {
    const starts: number[] = [];
    const replay = await replayPath(path, {
      callTool: (call) => Promise.resolve(call.input.text === 'Network' ? ToolResults.failure('NOT_FOUND', 'no Network on screen') : ToolResults.success('ok')),
      settle,
      signal: new AbortController().signal,
      onStepStart: (start) => starts.push(start.index),
    });
    assert.equal(replay.ok, false);
    assert.deepEqual(starts, [0, 1]);
  });
});

describe('navigation observers (the navigate_to tool in the chat)', function () {
  this.timeout(20_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gai-nav-observe-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an observer sees "Step n of N" and each replayed step of a navigation it did not start, until it stops observing', async () => {
    const app = new PagesDesktop(structuredClone(PAGES));
    const { store } = await BrainStore.open(dir);
    const brain = new NavigationBrain({
      store,
      services: app.services,
      callTool: (call) => app.callTool(call),
      learner: new ScriptedLearner(app, [['Settings', 'Network']]),
      settleTimeoutMs: 200,
    });
    assert.equal((await brain.navigateTo('Network settings')).how, 'learned');
    app.show('home');
    const messages: string[] = [];
    const steps: ReplayStep[] = [];
    const stop = brain.observe({ onProgress: (message) => messages.push(message), onStep: (step) => steps.push(step) });
    const own: string[] = [];
    const replay = await brain.navigateTo('Network settings', { onProgress: (message) => own.push(message) });
    assert.equal(replay.how, 'replayed', replay.message);
    const stepLines = messages.filter((m) => m.startsWith('Step '));
    assert.deepEqual(stepLines, ['Step 1 of 2: click "Settings"', 'Step 2 of 2: click "Network"']);
    assert.deepEqual(own, messages, 'the caller still gets its own progress');
    assert.deepEqual(steps.map((s) => [s.action, s.ok]), [['click "Settings"', true], ['click "Network"', true]]);

    stop();
    app.show('home');
    await brain.navigateTo('Network settings');
    assert.equal(steps.length, 2, 'no steps after it stopped observing');
  });
});
