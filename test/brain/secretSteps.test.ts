import { strict as assert } from 'node:assert';
import { validateDocument } from '../../src/navigation/store/brainValidation';
import type { PathAction } from '../../src/navigation/store/brainTypes';
import { actionFromToolCall, describeAction, replayCalls } from '../../src/navigation/routes/pathActions';
import { replayPath, type SecretPrompt } from '../../src/navigation/routes/pathReplayer';
import type { ToolInvocation } from '../../src/navigation/routes/pathActions';
import { ToolResults } from '../../src/tools/toolResult';
import { clickText, documentOf, homePage, networkPage, nodeFor, pathFor } from './support/brainFixtures';

// A learned step that typed a secret keeps only its length; its replay asks the person for it.

const SECRET = 'hunter2-hunter2';
/** The public form of the call, as type_text's publicInput gives it to the learner. */
const maskedCall = { text: '••••• (15 characters)', secret: true, pressEnter: true };

describe('secret typing steps in the brain', () => {
  it('a secret type_text call is recorded without its text, with its length', () => {
    const action = actionFromToolCall('type_text', maskedCall);
    assert.deepEqual(action, { tool: 'type_text', input: { secret: true, length: 15, pressEnter: true } });
    assert.ok(!JSON.stringify(action).includes('•'));
    assert.equal(describeAction(action!), 'type a secret (15 characters, not stored) + enter');
  });

  it('an ordinary type_text call keeps its text', () => {
    assert.deepEqual(actionFromToolCall('type_text', { text: 'hello' }), { tool: 'type_text', input: { text: 'hello' } });
  });

  it('a brain with a secret step validates; text with secret, or a secret without length, does not', () => {
    const from = nodeFor(homePage());
    const to = nodeFor(networkPage());
    const withSecret = (input: Record<string, unknown>): unknown =>
      documentOf([from, to], [pathFor({ id: 'p1', from: from.key, to: to.key, actions: [{ tool: 'type_text', input } as PathAction] })]);
    assert.equal(validateDocument(withSecret({ secret: true, length: 15 })).ok, true);
    const both = validateDocument(withSecret({ text: SECRET, secret: true, length: 15 }));
    assert.ok(!both.ok && both.errors.some((e) => /paths\.0\.actions\.0\.input: a step with text has no secret or length/.test(e)), JSON.stringify(both));
    const noLength = validateDocument(withSecret({ secret: true }));
    assert.ok(!noLength.ok && noLength.errors.some((e) => /paths\.0\.actions\.0\.input\.length: required for a secret step/.test(e)), JSON.stringify(noLength));
    const neither = validateDocument(withSecret({}));
    assert.ok(!neither.ok && neither.errors.some((e) => /input\.text: required \(or secret: true with a length\)/.test(e)), JSON.stringify(neither));
  });

  describe('replay', () => {
    const secretPath = (): ReturnType<typeof pathFor> =>
      pathFor({
        id: 'login',
        from: 'app::a',
        to: 'app::b',
        actions: [clickText('Password'), { tool: 'type_text', input: { secret: true, length: 15, pressEnter: true } }, clickText('Sign in')],
      });

    function recorder(): { calls: ToolInvocation[]; callTool: (call: ToolInvocation) => Promise<ReturnType<typeof ToolResults.success>> } {
      const calls: ToolInvocation[] = [];
      return {
        calls,
        callTool: (call) => {
          calls.push(structuredClone(call));
          return Promise.resolve(ToolResults.success(`${call.name} done`));
        },
      };
    }
    const settle = (): Promise<void> => Promise.resolve();

    it('asks the person for the secret, naming the step, and types it marked as secret', async () => {
      const { calls, callTool } = recorder();
      const labels: string[] = [];
      const promptSecret: SecretPrompt = (label) => {
        labels.push(label);
        return Promise.resolve(SECRET);
      };
      const replay = await replayPath(secretPath(), { callTool, settle, signal: new AbortController().signal, promptSecret });
      assert.equal(replay.ok, true, replay.reason);
      assert.deepEqual(labels, ['type a secret (15 characters, not stored) + enter: enter it to continue the way']);
      assert.deepEqual(calls[1], { name: 'type_text', input: { secret: true, pressEnter: true, text: SECRET } });
      assert.ok(!JSON.stringify(replay.steps).includes(SECRET), 'the step report does not carry the secret');
    });

    it('fails the step clearly when no one can enter it, and types nothing', async () => {
      const { calls, callTool } = recorder();
      const replay = await replayPath(secretPath(), { callTool, settle, signal: new AbortController().signal });
      assert.equal(replay.ok, false);
      assert.equal(replay.failedStep, 1);
      assert.match(replay.reason ?? '', /step 2 \(type a secret .*\): This step types a secret that is not stored, and no one can enter it here/);
      assert.deepEqual(calls.map((c) => c.name), ['click']);
    });

    it('fails the step when the person enters nothing', async () => {
      const { calls, callTool } = recorder();
      const replay = await replayPath(secretPath(), { callTool, settle, signal: new AbortController().signal, promptSecret: () => Promise.resolve(undefined) });
      assert.equal(replay.ok, false);
      assert.match(replay.reason ?? '', /no secret was entered/);
      assert.equal(calls.length, 1);
    });

    it('replays an ordinary typed step with its stored text, asking nothing', () => {
      assert.deepEqual(replayCalls({ tool: 'type_text', input: { text: 'hello', pressEnter: true } }), {
        primary: { name: 'type_text', input: { text: 'hello', pressEnter: true } },
      });
    });
  });
});
