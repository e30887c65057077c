// `gai mcp` driven by Codex (the real CLI, installed from npm) as the README tells a person to set
// it up: the README's own TOML for the server, `gai apps allow galculator`, and Codex's model
// pointed at a scripted Responses API server on 127.0.0.1. The scripted model presses 7 + 8 = on
// galculator through GAI's click and reads the display with GAI's ocr; Codex carries each call.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ScriptedResponsesServer, type ResponsesStep } from '../support/scriptedResponsesServer';
import { ensureCodex, runToEnd } from '../support/thirdPartyClients';
import { suiteDisplay } from './support/fixture';
import { clientDesk, writeCodexHome, type ClientDesk } from './support/clientDesk';

const REPO = resolve(__dirname, '../..');

/** The README's Codex snippet, as a person copies it, with this repository's path. */
function readmeCodexSnippet(): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const snippet = /```toml\n(\[mcp_servers\.gai\][\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(snippet, 'the README has no Codex snippet');
  return snippet.replaceAll('/path/to/gai', REPO);
}

function call(n: number, name: string, input: Record<string, unknown>): ResponsesStep {
  return { output: [{ type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, namespace: 'mcp__gai', name, arguments: JSON.stringify(input), status: 'completed' }] };
}

describe('Codex drives gai mcp with the README setup (real Codex CLI, galculator)', function () {
  this.timeout(600_000);
  const display = suiteDisplay();
  let codex: { launcher: string } | { skip: string };
  let model: ScriptedResponsesServer | undefined;
  let desk: ClientDesk | undefined;

  before(async function () {
    codex = ensureCodex();
    if ('skip' in codex) {
      console.log(`      skipped: ${codex.skip}`);
      this.skip();
    }
    desk = await clientDesk(display, 'gai-codex-');
    if (!desk) this.skip();
  });

  after(async () => {
    await model?.close();
    await desk?.stop();
  });

  it('computes 7 + 8 = 15: each call goes through Codex to GAI and back, and the display reads 15', async () => {
    // galculator allowed as the README's first step says (clientDesk), under the HOME Codex passes on.
    const { home, env: personEnv } = desk!;
    const keys = ['AC', '7', '+', '8', '='];
    model = await ScriptedResponsesServer.start([
      ...keys.map((text, i) => call(i, 'click', { text })),
      call(keys.length, 'ocr', { captureScreen: true }),
      { output: [{ type: 'message', id: 'msg_end', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'The display shows 15.', annotations: [] }] }] },
    ]);
    const codexHome = writeCodexHome(home, model.baseUrl, readmeCodexSnippet());
    const started = Date.now();
    const run = await runToEnd((codex as { launcher: string }).launcher, ['exec', '--skip-git-repo-check', 'compute 7+8 in the calculator'], { ...personEnv, CODEX_HOME: codexHome, SCRIPTED_KEY: 'scripted' }, home);
    const log = `${run.stdout}\n${run.stderr}`.slice(-4000) + `\n${model.requests.length} model request(s); the last input: ${JSON.stringify(model.requests.at(-1)?.body.input ?? null).slice(-1500)}`;
    assert.equal(run.status, 0, log);
    assert.equal(model.requests.length, keys.length + 2, log);
    // Every click answered by GAI through Codex, success, in order.
    const outputs = (model.requests.at(-1)!.body.input as Array<{ type: string; call_id?: string; output?: unknown }>).filter((item) => item.type === 'function_call_output');
    assert.equal(outputs.length, keys.length + 1, JSON.stringify(outputs).slice(0, 2000));
    for (const [i, output] of outputs.slice(0, keys.length).entries()) {
      assert.match(JSON.stringify(output.output), /\\"success\\":true/, `${keys[i]}: ${JSON.stringify(output.output).slice(0, 600)}`);
    }
    // GAI's reading, carried back by Codex: the display says 15.
    assert.match(JSON.stringify(outputs.at(-1)!.output), /\b15\b/, JSON.stringify(outputs.at(-1)!.output).slice(0, 1500));
    assert.match(run.stdout, /The display shows 15\./);
    console.log(`      Codex ${keys.length + 1} calls through gai mcp in ${Date.now() - started} ms`);
  });
});
