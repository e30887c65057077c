// A secret typed while learning a way (the built CLI on the suite display with the pages app,
// the model scripted through the real SDK): it never reaches the CLI's output or log, nor the
// brain, and a replay with no one to enter it fails at that step, saying why.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { toolReply } from '../support/scriptedSteps';
import { suiteDisplay } from './support/fixture';
import type { CliOutcome } from './support/builtCli';
import type { PagesApp } from '../support/pagesFixture';
import { startPagesCliRig, type PagesCliRig } from './support/pagesCliRig';

const display = suiteDisplay();
/** GitHub-token shaped: masked by its shape alone (the model does not say it is secret). */
const TOKEN = 'ghp_SecretTypingTest0123456789abcdefABCD';

describe('typed secrets on the desktop (built CLI, pages app)', function () {
  this.timeout(120_000);
  let rig: PagesCliRig;
  let server: ScriptedMessagesServer;
  let app: PagesApp;
  let home: string;
  const gai = (args: string[], env: Record<string, string> = {}): Promise<CliOutcome> => rig.gai(args, env);

  before(async () => {
    rig = await startPagesCliRig(display, { prefix: 'gai-secret-typing-', apiKey: 'test-key-for-secret-typing', timeoutMs: 100_000 });
    ({ server, app, home } = rig);
  });
  after(async () => {
    await rig?.close();
  });

  it('learning a way that types a token keeps it out of the output, the log and the brain; the replay asks for it', async () => {
    server.push(
      toolReply([{ name: 'click', input: { text: 'Settings' } }]),
      toolReply([{ name: 'type_text', input: { text: TOKEN, delay: 0 } }]),
      toolReply([{ name: 'click', input: { text: 'Network' } }]),
      toolReply([{ name: 'finish_navigation', input: { success: true, summary: 'Network settings shown' } }]),
    );
    const learned = await gai(['-v', 'navigate', 'Network settings', '--yes']);
    assert.equal(learned.code, 0, learned.stdout + learned.stderr);
    assert.equal(app.page(), 'network');
    // The model really asked for the token to be typed (so a leak would show).
    assert.ok(server.requests.some((r) => r.rawBody.includes(TOKEN)), 'the scripted type_text call carried the token');
    assert.ok(!(learned.stdout + learned.stderr).includes(TOKEN), `the output carries the token:\n${learned.stdout}\n${learned.stderr}`);

    const brainFile = readFileSync(join(home, 'data', 'gai', 'brain.json'), 'utf8');
    assert.ok(!brainFile.includes(TOKEN), 'brain.json carries the token');
    const stored = (JSON.parse(brainFile) as { paths: Array<{ actions: Array<{ tool: string; input: Record<string, unknown> }> }> }).paths[0]?.actions;
    assert.deepEqual(stored?.map((a) => a.tool), ['click', 'type_text', 'click']);
    assert.deepEqual(stored?.[1]?.input, { secret: true, length: TOKEN.length });

    const shown = await gai(['brain', 'show']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /type a secret \(40 characters, not stored\)/);

    // No terminal to ask and no model to relearn: the replay stops at the secret step and says why.
    await app.control('goto home');
    const replay = await gai(['navigate', 'Network settings', '--yes'], { ANTHROPIC_API_KEY: '' });
    assert.equal(replay.code, 1, replay.stdout + replay.stderr);
    assert.match(replay.stdout + replay.stderr, /types a secret that is not stored, and no one can enter it here/);
    assert.equal(app.page(), 'settings', 'the step before the secret ran, the one after did not');
  });
});
