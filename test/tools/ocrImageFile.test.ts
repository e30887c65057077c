import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SharpImages } from '../../src/platform/images/sharpImages';
import { OcrTool } from '../../src/tools/desktop/ocrTool';
import { readImageFile } from '../../src/tools/desktop/imageFile';
import { createFakeDesktop, makeServices, ocrWords, runTool, solidFrame, toolContext } from '../support/fakeDesktop';

// `ocr` with `imagePath` names a file the model chose: only regular files of a bounded size are
// read, and nothing the path points at (a FIFO, a device, a socket) can block or flood us.

describe('ocr imagePath: regular files only', function () {
  this.timeout(20_000);
  let dir: string;
  let socketServer: Server | undefined;
  const ocr = (): OcrTool => new OcrTool(makeServices(createFakeDesktop({ analysis: ocrWords([{ text: 'Hello', x: 1, y: 1, w: 30, h: 10 }]) })));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gai-ocr-file-'));
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => (socketServer ? socketServer.close(() => resolve()) : resolve()));
    socketServer = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** python3 is installed by ensureDeps (python3-tk); Node itself cannot make a FIFO. */
  function fifos(...names: string[]): string[] {
    const paths = names.map((name) => join(dir, name));
    execFileSync('python3', ['-c', 'import os, sys\nfor p in sys.argv[1:]: os.mkfifo(p)', ...paths]);
    return paths;
  }

  it('reads a regular image file', async () => {
    const path = join(dir, 'shot.png');
    writeFileSync(path, (await new SharpImages().encode(solidFrame(64, 32), 'png')).data);
    const result = await runTool(ocr(), { imagePath: path });
    assert.equal(result.success, true, result.error);
  });

  it('refuses /dev/zero, a directory, a FIFO and a socket with INVALID_INPUT naming imagePath', async () => {
    const socketPath = join(dir, 'sock');
    socketServer = createServer();
    await new Promise<void>((resolve) => socketServer!.listen(socketPath, resolve));
    const cases: Array<[string, RegExp]> = [
      ['/dev/zero', /character device/],
      [dir, /directory/],
      [fifos('pipe')[0] ?? '', /FIFO/],
      [socketPath, /cannot be opened|socket/],
    ];
    for (const [path, kind] of cases) {
      const result = await runTool(ocr(), { imagePath: path });
      assert.equal(result.code, 'INVALID_INPUT', `${path}: ${result.error}`);
      assert.ok(result.error?.startsWith(`imagePath: ${path} `), result.error);
      assert.match(result.error ?? '', kind);
    }
    const rss = process.memoryUsage().rss;
    assert.ok(rss < 2_000_000_000, `nothing was read from /dev/zero (rss ${rss})`);
  });

  it('FIFOs never park the thread pool: after 12 of them, file reads still complete', async () => {
    const pipes = fifos(...Array.from({ length: 12 }, (_, i) => `p${i}`));
    const results = await Promise.all(pipes.map((path) => runTool(ocr(), { imagePath: path })));
    assert.deepEqual([...new Set(results.map((r) => r.code))], ['INVALID_INPUT']);
    // With the 4 libuv threads blocked in open(2), this read would never finish.
    const self = await readFile(__filename, 'utf8');
    assert.equal(self, readFileSync(__filename, 'utf8'));
  });

  it('refuses a file over the size cap without reading it, and honours the abort signal', async () => {
    const path = join(dir, 'big.png');
    writeFileSync(path, Buffer.alloc(64 * 1024));
    const tooBig = await readImageFile(path, new AbortController().signal, 1024);
    assert.ok(!tooBig.ok && tooBig.kind === 'invalid');
    assert.match(tooBig.ok ? '' : tooBig.message, /^imagePath: .* has 65536 bytes, more than the limit of 1024$/);

    const controller = new AbortController();
    controller.abort();
    const cancelled = await runTool(ocr(), { imagePath: path }, toolContext(controller.signal));
    assert.equal(cancelled.code, 'CANCELLED');
  });

  it('a missing file is NOT_FOUND', async () => {
    const result = await runTool(ocr(), { imagePath: join(dir, 'missing.png') });
    assert.equal(result.code, 'NOT_FOUND');
    assert.match(result.error ?? '', /missing\.png does not exist/);
  });
});
