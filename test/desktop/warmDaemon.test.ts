import { strict as assert } from 'node:assert';
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { encodeFrame, FrameReader, type DaemonStatus } from '../../src/desktop/remote/remoteProtocol';
import { launchFixture, suiteDisplay, type Fixture } from './support/fixture';
import { BUILT_CLI, type CliOutcome } from './support/builtCli';

// The warm perception daemon (gai daemon) on the suite display, driven through the built CLI.

const display = suiteDisplay();
const configHome = mkdtempSync(join(tmpdir(), 'gai-cfg-'));
// A private runtime dir: the daemon's socket lives there, away from any other daemon.
const runtimeDir = mkdtempSync(join(tmpdir(), 'gai-run-'));
const env = { ...display.env, XDG_CONFIG_HOME: configHome, XDG_RUNTIME_DIR: runtimeDir };
const socketPath = join(runtimeDir, 'gai', `daemon-${display.display.replace(/[^A-Za-z0-9]/g, '_')}.sock`);

/**
 * A private copy of the built CLI (beside a link to node_modules): other builds of dist/cli.js
 * while this suite runs are other builds to the daemon, which would rightly restart it.
 */
function copyCli(extraLine = ''): { cli: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gai-cli-'));
  const cli = join(dir, 'cli.js');
  copyFileSync(BUILT_CLI, cli);
  if (extraLine) appendFileSync(cli, `\n${extraLine}\n`);
  symlinkSync(resolve(BUILT_CLI, '..', '..', 'node_modules'), join(dir, 'node_modules'));
  return { cli, dir };
}

let ownCli: { cli: string; dir: string } | undefined;

function gai(args: string[], cli = ownCli?.cli ?? BUILT_CLI): Promise<CliOutcome> {
  return new Promise((done) => {
    execFile(process.execPath, [cli, ...args], { env, timeout: 120_000 }, (error, stdout, stderr) => {
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function status(): Promise<DaemonStatus & { running: boolean }> {
  const outcome = await gai(['daemon', 'status', '--json']);
  return JSON.parse(outcome.stdout) as DaemonStatus & { running: boolean };
}

/** One raw connection speaking the frame protocol, to send what no gai command would. */
class RawClient {
  private readonly reader = new FrameReader();
  private readonly waiting: Array<(header: Record<string, unknown>) => void> = [];
  readonly closed: Promise<void>;
  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      for (const frame of this.reader.push(chunk)) this.waiting.shift()?.(frame.header as Record<string, unknown>);
    });
    this.closed = new Promise((done) => socket.once('close', () => done()));
  }
  static open(): Promise<RawClient> {
    return new Promise((done, fail) => {
      const socket = connect(socketPath, () => done(new RawClient(socket)));
      socket.once('error', fail);
    });
  }
  send(parts: Buffer[]): Promise<Record<string, unknown>> {
    const answer = new Promise<Record<string, unknown>>((done) => this.waiting.push(done));
    for (const part of parts) this.socket.write(part);
    return answer;
  }
  close(): void {
    this.socket.destroy();
  }
}

describe('gai daemon: warm perception between CLI commands (built CLI on the suite display)', function () {
  this.timeout(240_000);
  let app: Fixture;

  before(async function () {
    if (!existsSync(BUILT_CLI)) throw new Error('dist/cli.js is missing: npm test builds it before the suites');
    ownCli = copyCli();
    app = await launchFixture(display);
  });
  after(async () => {
    await gai(['daemon', 'stop']);
    await app?.close();
    rmSync(configHome, { recursive: true, force: true });
    rmSync(runtimeDir, { recursive: true, force: true });
    if (ownCli) rmSync(ownCli.dir, { recursive: true, force: true });
  });

  it('starts on a 0600 socket in a 0700 folder, and the next commands are served by it', async () => {
    const before = await gai(['daemon', 'status', '--json']);
    assert.equal(before.code, 1, 'not running yet');
    assert.equal(JSON.parse(before.stdout).running, false);

    const started = await gai(['daemon', 'start', '--json']);
    assert.equal(started.code, 0, started.stderr);
    const pid = (JSON.parse(started.stdout) as DaemonStatus).pid;
    assert.equal(statSync(socketPath).mode & 0o777, 0o600);
    assert.equal(statSync(join(runtimeDir, 'gai')).mode & 0o777, 0o700);

    const s0 = await status();
    const first = await gai(['ocr']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /Cancel/);
    const s1 = await status();
    const second = await gai(['-v', 'ocr']);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /Cancel/);
    assert.match(second.stderr, /served by the warm daemon/);
    const s2 = await status();

    assert.equal(s2.pid, pid, 'the same daemon served both');
    assert.ok(s1.served > s0.served, `first command served (${s0.served} -> ${s1.served})`);
    assert.ok(s2.served > s1.served, `second command served (${s1.served} -> ${s2.served})`);
    // Each status query is a connection too: each command opened exactly one.
    assert.equal(s1.connections, s0.connections + 2);
    assert.equal(s2.connections, s1.connections + 2);
    assert.equal(s2.ocrEngines, 1, 'one OCR engine for the daemon\'s life');
    assert.ok(s2.ocrReads + s2.ocrCacheHits >= 3, 'the warm-up read and both commands\' reads went through the daemon');
  });

  it('a click by text is located through the daemon and lands on the widget', async () => {
    const s0 = await status();
    const clicked = await gai(['click', 'Apply', '--json']);
    assert.equal(clicked.code, 0, clicked.stderr);
    await app.waitFor((e) => e.event === 'click' && e.widget === 'apply_button');
    const s1 = await status();
    assert.ok(s1.served > s0.served);
  });

  it('--cold reads in the command itself and leaves the daemon alone', async () => {
    const s0 = await status();
    const cold = await gai(['--cold', 'ocr']);
    assert.equal(cold.code, 0, cold.stderr);
    assert.match(cold.stdout, /Cancel/);
    const s1 = await status();
    assert.equal(s1.served, s0.served + 1, 'only the status query itself');
  });

  it('serves two commands at once, one request at a time', async () => {
    const s0 = await status();
    const [a, b] = await Promise.all([gai(['ocr']), gai(['ocr'])]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    assert.match(a.stdout, /Cancel/);
    assert.match(b.stdout, /Cancel/);
    const s1 = await status();
    assert.equal(s1.connections, s0.connections + 3);
  });

  it('answers malformed requests with a clear error and keeps serving', async () => {
    const raw = await RawClient.open();
    const notJson = Buffer.from('{oops');
    const prefix = Buffer.alloc(8);
    prefix.writeUInt32BE(notJson.length, 0);
    const parsed = await raw.send([prefix, notJson]);
    assert.equal(parsed.ok, false);
    assert.match(String((parsed.error as { message: string }).message), /not JSON/);

    const unknown = await raw.send(encodeFrame({ id: 7, method: 'screen.destroy', params: {} }));
    assert.equal(unknown.id, 7);
    assert.match(String((unknown.error as { message: string }).message), /request\.method: expected one of/);

    const badParams = await raw.send(encodeFrame({ id: 8, method: 'ocr.recognize', params: { hash: 'x', width: 1, height: 1, origin: { x: 0, y: 0 } } }));
    assert.equal(badParams.ok, false);
    assert.match(String((badParams.error as { message: string }).message), /ocr\.recognize: params\.hash/);

    const fine = await raw.send(encodeFrame({ id: 9, method: 'status', params: {} }));
    assert.equal(fine.ok, true, 'the same connection still works');

    // A frame whose length cannot be trusted ends that connection only.
    const broken = Buffer.alloc(8);
    broken.writeUInt32BE(0, 0);
    const framing = await raw.send([broken]);
    assert.match(String((framing.error as { message: string }).message), /frame header of 0 bytes/);
    await raw.closed;

    const after = await status();
    assert.equal(after.running, true);
    assert.ok(after.rejected >= 4);
    const ocr = await gai(['ocr']);
    assert.match(ocr.stdout, /Cancel/);
  });

  it('a stale socket (daemon killed) is detected: commands read locally, --warm replaces it', async () => {
    const { pid } = await status();
    process.kill(pid, 'SIGKILL');
    await waitUntil(() => !isAlive(pid));
    assert.ok(existsSync(socketPath), 'a killed daemon leaves its socket behind');

    const stale = await gai(['daemon', 'status', '--json']);
    assert.equal(stale.code, 1);
    const cold = await gai(['ocr']);
    assert.equal(cold.code, 0, cold.stderr);
    assert.match(cold.stdout, /Cancel/);

    const warm = await gai(['--warm', 'ocr']);
    assert.equal(warm.code, 0, warm.stderr);
    assert.match(warm.stdout, /Cancel/);
    const fresh = await status();
    assert.equal(fresh.running, true);
    assert.notEqual(fresh.pid, pid);
    assert.ok(fresh.connections >= 2, 'the --warm command was served by the new daemon');
  });

  it('a daemon of another build is stopped and started again by the current CLI', async () => {
    // Another build: the bundle with one more line, from another time.
    const { cli: oldCli, dir } = copyCli('// an older build');
    utimesSync(oldCli, new Date(2020, 0, 1), new Date(2020, 0, 1));
    try {
      await gai(['daemon', 'stop']);
      const old = await gai(['daemon', 'start', '--json'], oldCli);
      assert.equal(old.code, 0, old.stderr);
      const oldStatus = JSON.parse(old.stdout) as DaemonStatus;

      const ocr = await gai(['ocr']);
      assert.equal(ocr.code, 0, ocr.stderr);
      assert.match(ocr.stdout, /Cancel/);
      const now = await status();
      assert.equal(now.running, true);
      assert.notEqual(now.pid, oldStatus.pid, 'restarted');
      assert.notEqual(now.build, oldStatus.build);
      assert.ok(!isAlive(oldStatus.pid), 'the old daemon exited');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stop ends the daemon and removes its socket', async () => {
    const { pid } = await status();
    const stopped = await gai(['daemon', 'stop']);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stdout, /stopped/);
    assert.equal(existsSync(socketPath), false);
    await waitUntil(() => !isAlive(pid));
    const after = await gai(['daemon', 'status', '--json']);
    assert.equal(after.code, 1);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // An exited daemon whose parent was the CLI that started it is the init process's to reap, which
  // some containers' init does only every few seconds: a zombie has exited.
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((done) => setTimeout(done, 50));
  assert.ok(condition(), 'condition not reached within 10 s');
}
