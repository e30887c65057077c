// Navigate To says which step is under way: the replayer calls onStepStart before each step
// (not only onStep after it), and the host's line reads "Step 2 of 3: click "Network"".
import { strict as assert } from 'node:assert';
import { replayPath, type StepStart } from '../../src/brain/pathReplayer';
import type { ToolInvocation } from '../../src/brain/pathActions';
import { stepProgressText } from '../../src/brain/navigationBrain';
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
