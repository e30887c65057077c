// `gai mcp` driven by Gemini CLI (the real CLI, installed from npm) as the README tells a person
// to set it up: the README's own settings for the server, `gai apps allow galculator`, an API-key
// sign-in and a trusted folder; Gemini's model is a scripted Gemini API server on 127.0.0.1
// (GOOGLE_GEMINI_BASE_URL). The script presses 7 + 8 = on galculator through GAI's click and
// reads the display with GAI's ocr; Gemini CLI carries each call.
import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ScriptedGeminiServer } from '../support/scriptedGeminiServer';
import { ensureGeminiCli, runToEnd } from '../support/thirdPartyClients';
import { suiteDisplay } from './support/fixture';
import { clientDesk, type ClientDesk } from './support/clientDesk';

const REPO = resolve(__dirname, '../..');

/** The README's Gemini CLI settings, as a person copies them, with this repository's path. */
function readmeGeminiSettings(): { mcpServers: Record<string, unknown> } {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('**Gemini CLI**'));
  const snippet = /```json\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(snippet, 'the README has no Gemini CLI snippet');
  return JSON.parse(snippet.replaceAll('/path/to/gai', REPO)) as { mcpServers: Record<string, unknown> };
}

describe('Gemini CLI drives gai mcp with the README setup (real Gemini CLI, galculator)', function () {
  this.timeout(600_000);
  const display = suiteDisplay();
  let gemini: { launcher: string } | { skip: string };
  let model: ScriptedGeminiServer | undefined;
  let desk: ClientDesk | undefined;

  before(async function () {
    gemini = ensureGeminiCli();
    if ('skip' in gemini) {
      console.log(`      skipped: ${gemini.skip}`);
      this.skip();
    }
    desk = await clientDesk(display, 'gai-gemini-');
    if (!desk) this.skip();
  });

  after(async () => {
    await model?.close();
    await desk?.stop();
  });

  it('computes 7 + 8 = 15: each call goes through Gemini CLI to GAI and back, and the display reads 15', async () => {
    const { home, env: personEnv } = desk!;
    const keys = ['AC', '7', '+', '8', '='];
    model = await ScriptedGeminiServer.start([
      ...keys.map((text) => ({ functionCall: { name: 'mcp_gai_click', args: { text } } })),
      { functionCall: { name: 'mcp_gai_ocr', args: { captureScreen: true } } },
      { text: 'The display shows 15.' },
    ]);
    // The README's server entry; the sign-in by API key and a trusted folder are Gemini CLI's own settings.
    const settings = { ...readmeGeminiSettings(), security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } } };
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
    const started = Date.now();
    const run = await runToEnd((gemini as { launcher: string }).launcher, ['-p', 'compute 7+8 in the calculator'], { ...personEnv, GEMINI_API_KEY: 'scripted', GOOGLE_GEMINI_BASE_URL: model.baseUrl }, home);
    const contents = JSON.stringify(model.requests.at(-1)?.contents ?? null);
    const log = `${run.stdout}\n${run.stderr}`.slice(-3000) + `\n${model.requests.length} conversation request(s); the last: ${contents.slice(-1500)}`;
    assert.equal(run.status, 0, log);
    assert.equal(model.requests.length, keys.length + 2, log);
    // Each call's answer came back to the model as a function response: the clicks worked, the reading says 15.
    const responses = ((model.requests.at(-1)!.contents as Array<{ parts: Array<{ functionResponse?: { name: string; response: unknown } }> }>) ?? [])
      .flatMap((content) => content.parts)
      .filter((part) => part.functionResponse)
      .map((part) => part.functionResponse!);
    assert.deepEqual(responses.map((r) => r.name), [...keys.map(() => 'mcp_gai_click'), 'mcp_gai_ocr'], log);
    for (const [i, response] of responses.slice(0, keys.length).entries()) assert.match(JSON.stringify(response.response), /\\"success\\":true/, `${keys[i]}: ${JSON.stringify(response.response).slice(0, 600)}`);
    assert.match(JSON.stringify(responses.at(-1)!.response), /\b15\b/, JSON.stringify(responses.at(-1)!.response).slice(0, 1500));
    assert.match(run.stdout, /The display shows 15\./);
    console.log(`      Gemini CLI ${keys.length + 1} calls through gai mcp in ${Date.now() - started} ms (${model.sideCalls} side call(s) of its own)`);
  });
});
