// Runs inside the bench's private display (started by hostileBench.ts). The built CLI's
// `gai ask --profile standard` (no --yes: actions are denied, nothing clicks) against a scripted
// Messages server whose "model" sends fuzzed tool calls, 50 per turn: one long session of
// 10,000 calls with the CLI's resident memory sampled as it goes, then short sessions.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { addAudits, auditLastTurn, hostilePrompt, hostileScript, type SessionAudit } from '../test/support/hostileCalls';
import { ScriptedMessagesServer } from '../test/support/scriptedMessagesServer';
import type { BenchRow } from './benchReport';

const ROOT = resolve(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const CALLS_PER_TURN = 50;
/** 200 turns: 10,000 calls. GAI_HOSTILE_TURNS shortens it for a quick look. */
const LONG_TURNS = Number(process.env.GAI_HOSTILE_TURNS ?? 200);
const SHORT_SESSIONS = Number(process.env.GAI_HOSTILE_SHORT_SESSIONS ?? 8);
const SHORT_TURNS = 5; // 250 calls each
const KEY = 'sk-ant-api03-hostileBenchKey0123456789abcdefABCDEFxyz';

interface SessionRun {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Resident and peak resident memory of a process, in MB, from /proc. */
function memoryOf(pid: number | undefined): { rss: number; peak: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  // Measure the code as it is now, not an older bundle.
  const built = spawnSync(process.execPath, [join(ROOT, 'esbuild.config.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error('the build failed');

  let childPid: number | undefined;
  /** Calls the model had made before each request, and the CLI's memory when it arrived. */
  const samples: Array<{ calls: number; rss: number; peak: number }> = [];
  /** Each request's newest turn, summed per session: a long session's history is trimmed. */
  const audits = new Map<number, SessionAudit>();
  const leaked = new Set<number>();
  const server = await ScriptedMessagesServer.start(
    hostileScript({
      turns: (session) => (session === 0 ? LONG_TURNS : SHORT_TURNS),
      callsPerTurn: CALLS_PER_TURN,
      onRequest: (request, session, turn) => {
        const newest = auditLastTurn(request.body);
        const sum = audits.get(session);
        audits.set(session, sum ? addAudits(sum, newest) : newest);
        if (request.rawBody.includes(KEY)) leaked.add(session);
        // The audits are kept as sums: the requests themselves need not be.
        server.requests.splice(0, server.requests.length - 1);
        const memory = session === 0 ? memoryOf(childPid) : undefined;
        if (memory) samples.push({ calls: turn * CALLS_PER_TURN, ...memory });
        if (memory && process.env.GAI_HOSTILE_TRACE) console.error(`turn ${turn}: rss ${memory.rss.toFixed(0)} MB, peak ${memory.peak.toFixed(0)} MB, body ${request.rawBody.length} chars`);
      },
    }),
  );
  const home = mkdtempSync(join(tmpdir(), 'gai-hostile-bench-'));
  const ask = (session: number, turns: number): Promise<SessionRun> => {
    const env = {
      ...process.env,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
      ANTHROPIC_BASE_URL: server.baseUrl,
      ANTHROPIC_API_KEY: KEY,
    };
    const args = [CLI, 'ask', '--profile', 'standard', '--max-iterations', String(turns + 1), hostilePrompt(session)];
    const started = performance.now();
    return new Promise((done) => {
      const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      if (session === 0) childPid = child.pid;
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout = (stdout + d).slice(-100_000)));
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        if (d.includes(KEY)) stderr += `\n[KEY LEAKED]\n`;
        stderr = (stderr + d).slice(-200_000);
      });
      child.once('exit', (code, signal) => done({ code, signal, stdout, stderr, ms: performance.now() - started }));
    });
  };

  const rows: BenchRow[] = [];
  try {
    let died = 0;
    let leaks = 0;
    let audit: SessionAudit | undefined;
    const check = (session: number, run: SessionRun, turns: number): void => {
      const finished = run.code === 0 && run.stdout.includes(`done after ${turns} turns`) && !/Maximum call stack|gai: /.test(run.stderr);
      if (!finished) {
        died++;
        console.error(`hostile bench: session ${session} ended with ${run.code ?? run.signal}: ${run.stderr.slice(-1_000)}`);
      }
      if (run.stdout.includes(KEY) || run.stderr.includes('[KEY LEAKED]')) leaks++;
      const sessionAudit = audits.get(session);
      if (leaked.has(session)) leaks++;
      if (sessionAudit) {
        // Calls planned but never in the history count as unanswered too.
        sessionAudit.unanswered += Math.max(0, turns * CALLS_PER_TURN - sessionAudit.toolUses);
        audit = audit ? addAudits(audit, sessionAudit) : sessionAudit;
      }
      audits.delete(session);
    };

    const long = await ask(0, LONG_TURNS);
    check(0, long, LONG_TURNS);
    for (let s = 1; s <= SHORT_SESSIONS; s++) check(s, await ask(s, SHORT_TURNS), SHORT_TURNS);
    const at = (calls: number): { rss: number; peak: number } | undefined => samples.find((sample) => sample.calls >= calls);
    const start = samples[0];
    const after1k = at(1_000);
    const after10k = at(LONG_TURNS * CALLS_PER_TURN);
    const bad = (audit?.unanswered ?? NaN) + (audit?.duplicates ?? NaN);
    const total = LONG_TURNS * CALLS_PER_TURN + SHORT_SESSIONS * SHORT_TURNS * CALLS_PER_TURN;
    rows.push(
      { name: 'hostile: fuzzed tool calls answered', value: audit?.answered ?? 0, unit: 'calls', note: `of ${total}: 1 session of ${LONG_TURNS} turns × ${CALLS_PER_TURN} (${(long.ms / 1000).toFixed(0)} s) + ${SHORT_SESSIONS} of ${SHORT_TURNS} turns` },
      { name: 'hostile: sessions died', value: died, unit: 'sessions', goal: '0', met: died === 0, note: `of ${SHORT_SESSIONS + 1}` },
      { name: 'hostile: calls without exactly one result', value: bad, unit: 'calls', goal: '0', met: bad === 0 },
      { name: 'hostile: failed results without a code', value: audit?.withoutCode ?? NaN, unit: 'results', goal: '0', met: audit?.withoutCode === 0, note: `codes ${JSON.stringify(audit?.codes ?? {})}` },
      { name: 'hostile: largest result text', value: audit?.maxResultChars ?? NaN, unit: 'chars', goal: '<= 20000', met: (audit?.maxResultChars ?? Infinity) <= 20_000 },
      { name: 'hostile: key seen in output or request bodies', value: leaks, unit: 'times', goal: '0', met: leaks === 0 },
      { name: 'hostile: CLI RSS at the first request', value: start?.rss ?? NaN, unit: 'MB' },
      { name: 'hostile: CLI RSS after 1,000 tool calls', value: after1k?.rss ?? NaN, unit: 'MB' },
      { name: 'hostile: CLI RSS after 10,000 tool calls', value: after10k?.rss ?? NaN, unit: 'MB', note: `peak ${after10k?.peak.toFixed(0) ?? '?'} MB` },
    );
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
  console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
