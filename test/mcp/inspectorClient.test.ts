// `gai mcp` with a client nobody here wrote: the MCP Inspector's CLI (@modelcontextprotocol/inspector
// 2.x, its own client on the v2 SDK), as a person runs it from a terminal. Over stdio it lists
// GAI's tools and sends `--tool-arg text=7` as the number 7, which GAI takes as the text "7";
// over HTTP a header stored before a restart still gets in.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { SOURCE_MCP_SERVER, startHttp } from '../support/mcpServerProcess';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');
const INSPECTOR = join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');

describe('gai mcp with the MCP Inspector CLI (a third-party client)', function () {
  this.timeout(120_000);
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'gai-inspector-'));
    // The Inspector keeps a catalog in HOME; GAI its config and brain: all in the test's folder, no display.
    env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), GAI_BRAIN_DIR: join(home, 'brain'), ANTHROPIC_API_KEY: '' };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  /** The Inspector's answer (JSON on stdout), whether or not it calls the result an error. */
  async function inspect(args: string[]): Promise<Record<string, unknown>> {
    const outcome = await run(process.execPath, [INSPECTOR, '--cli', ...args], { env, cwd: ROOT, timeout: 90_000 }).catch((error: { stdout?: string; stderr?: string }) => error);
    const text = outcome.stdout ?? '';
    const start = text.indexOf('{');
    assert.ok(start >= 0, `no JSON from the Inspector:\n${text}\n${outcome.stderr ?? ''}`);
    return JSON.parse(text.slice(start, text.lastIndexOf('}') + 1).split('\n{"error"')[0]!) as Record<string, unknown>;
  }

  /** GAI's server as the Inspector starts it (stdio), its folders passed on explicitly. */
  const server = (): string[] => ['-e', `XDG_CONFIG_HOME=${env.XDG_CONFIG_HOME}`, '-e', `GAI_BRAIN_DIR=${env.GAI_BRAIN_DIR}`, '-e', `HOME=${home}`, '--', process.execPath, '--import', 'tsx', SOURCE_MCP_SERVER];

  it('over stdio: lists GAI\'s tools, and `--tool-arg text=7` (sent as a number) reaches click as "7"', async () => {
    const listed = await inspect(['--method', 'tools/list', ...server()]);
    const names = (listed.tools as Array<{ name: string }>).map((t) => t.name);
    assert.ok(names.includes('click') && names.includes('ocr'), names.join(', '));
    const clicked = await inspect(['--method', 'tools/call', '--tool-name', 'click', '--tool-arg', 'text=7', ...server()]);
    const body = JSON.parse((clicked.content as Array<{ text: string }>)[0]!.text) as { code?: string; observation: string };
    assert.notEqual(body.code, 'INVALID_INPUT', body.observation);
    // No display here: the click is refused saying so, with no raw X error.
    assert.match(body.observation, /no display: DISPLAY is not set/);
    assert.doesNotMatch(body.observation, /xprop|unable to open display/);
  });

  it('over HTTP: the bearer token the Inspector was given works again after gai mcp restarts', async () => {
    const file = join(home, 'config', 'gai', 'mcp-token');
    for (let start = 0; start < 2; start++) {
      const http = await startHttp(SOURCE_MCP_SERVER, [], env, file);
      try {
        const listed = await inspect(['--method', 'tools/list', '--transport', 'http', '--header', `Authorization: Bearer ${http.token}`, '--', http.url.href]);
        assert.ok((listed.tools as Array<{ name: string }>).some((t) => t.name === 'ocr'), `start ${start + 1}`);
      } finally {
        await http.stop();
      }
    }
  });
});
