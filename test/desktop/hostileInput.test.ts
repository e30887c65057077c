// Hostile input never kills a session: the built CLI's `gai ask` on the suite display, the real
// SDK against a scripted Messages server whose "model" sends fuzzed tool calls, many per turn.
// The full 10,000-call run with memory figures is `npm run bench -- hostile`.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MAX_RESULT_TEXT_CHARS } from '../../src/tools/toolResult';
import { addAudits, auditHistory, hostilePrompt, hostileScript, type SessionAudit } from '../support/hostileCalls';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import type { RecordedRequest } from '../support/scriptedSteps';
import { launchFixture, suiteDisplay, type Fixture } from './support/fixture';

const display = suiteDisplay();
const CLI = resolve(__dirname, '../../dist/cli.js');
const SESSIONS = 3;
const TURNS = 3;
const CALLS_PER_TURN = 20;
/** A made-up key in a real key's shape: it must show up nowhere but in the request headers. */
const KEY = 'sk-ant-api03-hostileFuzzKey0123456789abcdefABCDEFxyz';

describe('hostile tool input (built CLI, scripted model, suite display)', function () {
  // About 30 s on a quiet machine; the limits leave room for a loaded one.
  this.timeout(300_000);
  let server: ScriptedMessagesServer;
  let app: Fixture;
  let home: string;
  const lastRequest = new Map<number, RecordedRequest>();

  before(async () => {
    if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: npm test builds it before the suites');
    server = await ScriptedMessagesServer.start(
      hostileScript({ turns: TURNS, callsPerTurn: CALLS_PER_TURN, onRequest: (request, session) => lastRequest.set(session, request) }),
    );
    home = mkdtempSync(join(tmpdir(), 'gai-hostile-'));
    app = await launchFixture(display);
  });
  after(async () => {
    await app?.close();
    await server?.close();
    rmSync(home, { recursive: true, force: true });
  });

  function ask(session: number): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
    const env = {
      ...display.env,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
      ANTHROPIC_BASE_URL: server.baseUrl,
      ANTHROPIC_API_KEY: KEY,
    };
    const args = [CLI, 'ask', '--profile', 'standard', '--max-iterations', String(TURNS + 1), hostilePrompt(session)];
    return new Promise((done) => {
      execFile(process.execPath, args, { env, timeout: 90_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        const failure = error as (Error & { code?: number; signal?: string }) | null;
        done({ code: failure ? (typeof failure.code === 'number' ? failure.code : null) : 0, signal: failure?.signal ?? null, stdout, stderr });
      });
    });
  }

  it(`${SESSIONS} sessions of ${TURNS} turns × ${CALLS_PER_TURN} fuzzed calls: no session dies, every call gets one coded, bounded result, the key leaks nowhere, nothing is clicked`, async () => {
    let total: SessionAudit | undefined;
    for (let session = 1; session <= SESSIONS; session++) {
      const run = await ask(session);
      const what = `session ${session}`;
      assert.equal(run.signal, null, `${what} was killed (hung?)`);
      assert.equal(run.code, 0, `${what} exited ${run.code}:\n${run.stderr.slice(-3_000)}`);
      assert.doesNotMatch(run.stderr, /Maximum call stack|gai: /, `${what}: ${run.stderr.slice(-2_000)}`);
      assert.match(run.stdout, new RegExp(`done after ${TURNS} turns`), `${what} reached the model's final answer:\n${run.stdout.slice(-1_500)}\n${run.stderr.slice(-3_000)}`);
      assert.ok(run.stderr.length < 2_000_000, `${what}: stderr is bounded (${run.stderr.length} characters)`);
      for (const text of [run.stdout, run.stderr]) assert.ok(!text.includes(KEY), `${what}: the key is in the output`);

      const last = lastRequest.get(session);
      assert.ok(last, `${what}: the server saw the session`);
      const audit = auditHistory(last.body);
      assert.equal(audit.toolUses, TURNS * CALLS_PER_TURN, `${what}: every call is in the history`);
      total = total ? addAudits(total, audit) : audit;
    }
    assert.ok(total);
    assert.equal(total.unanswered, 0, 'calls without a result');
    assert.equal(total.duplicates, 0, 'calls with more than one result');
    assert.equal(total.withoutCode, 0, `failed results without a code: ${JSON.stringify(total.codes)}`);
    assert.ok(total.maxResultChars <= MAX_RESULT_TEXT_CHARS, `largest result ${total.maxResultChars} characters`);
    assert.ok((total.codes.INVALID_INPUT ?? 0) > 0 && (total.codes.DENIED ?? 0) > 0 && (total.codes.NOT_FOUND ?? 0) > 0 && (total.codes.ok ?? 0) > 0, JSON.stringify(total.codes));

    for (const request of server.requests) {
      assert.ok(!request.rawBody.includes(KEY), 'the key is in a request body');
      assert.ok(request.rawBody.length < 4_000_000, `request body of ${request.rawBody.length} characters`);
    }
    const acted = app.events().filter((e) => ['click', 'text', 'key', 'scroll'].includes(String(e.event)));
    assert.deepEqual(acted, [], 'no action reached the fixture: nobody approved any');
  });
});
