// What the brain panel does with the view's messages, with a fake VS Code side: forget only after
// confirmation, rename through the input box, redraw after every change, never throw.
import { strict as assert } from 'node:assert';
import { MemoryLogger } from '../../src/common/logger';
import { BrainController, labelProblem } from '../../src/vscode/brain/brainController';
import { FakeHost, FakeSource } from './brainFakes';

describe('brain panel controller', () => {
  let source: FakeSource;
  let host: FakeHost;
  let logger: MemoryLogger;
  let controller: BrainController;

  beforeEach(() => {
    source = new FakeSource();
    host = new FakeHost();
    logger = new MemoryLogger();
    controller = new BrainController(source, host, logger);
  });

  it('answers `ready` with the graph, the current screen marked', async () => {
    await controller.receive({ type: 'ready' });
    assert.equal(controller.readyCount, 1);
    const [graph] = host.graphs();
    assert.equal(graph?.nodes.length, 5);
    assert.deepEqual(graph?.nodes.filter((n) => n.isCurrent).map((n) => n.key), ['settings::network']);
  });

  it('logs and drops malformed messages without throwing or acting', async () => {
    for (const raw of [null, 'forgetNode', { type: 'forgetNode' }, { type: 'runShell', command: 'rm -rf /' }, { type: 'renameNode', key: 'k', label: '' }]) {
      await controller.receive(raw);
    }
    assert.equal(controller.rejectedMessages, 5);
    assert.deepEqual([host.posted, host.questions, source.calls], [[], [], []]);
    assert.equal(logger.lines.filter((line) => line.includes('rejected a malformed message')).length, 5);
  });

  it('answers `thumbnail` with the screen\'s picture as a data: URL, or null; the graph only says which screens have one', async () => {
    const data = Buffer.from('jpeg bytes').toString('base64');
    const network = source.doc.nodes.find((n) => n.key === 'settings::network')!;
    network.thumbnail = { mediaType: 'image/jpeg', data, width: 240, height: 150 };
    await controller.receive({ type: 'ready' });
    const graph = host.graphs()[0];
    assert.deepEqual(graph?.nodes.filter((n) => n.hasThumbnail).map((n) => n.key), ['settings::network']);
    assert.equal(JSON.stringify(graph).includes(data), false, 'no image data in the graph');

    host.posted = [];
    for (const key of ['settings::network', 'settings::wifi', 'gone::x', '@launcher']) await controller.receive({ type: 'thumbnail', key });
    assert.deepEqual(host.posted, [
      { type: 'thumbnail', key: 'settings::network', src: `data:image/jpeg;base64,${data}` },
      { type: 'thumbnail', key: 'settings::wifi', src: null },
      { type: 'thumbnail', key: 'gone::x', src: null },
      { type: 'thumbnail', key: '@launcher', src: null },
    ]);

    // Only picture types, only base64: nothing else from the document becomes a URL.
    host.posted = [];
    network.thumbnail = { mediaType: 'image/svg+xml' as 'image/png', data, width: 1, height: 1 };
    await controller.receive({ type: 'thumbnail', key: 'settings::network' });
    network.thumbnail = { mediaType: 'image/png', data: 'AAAA"><script>', width: 1, height: 1 };
    await controller.receive({ type: 'thumbnail', key: 'settings::network' });
    network.thumbnail = { mediaType: 'image/webp', data, width: 1, height: 1 };
    await controller.receive({ type: 'thumbnail', key: 'settings::network' });
    assert.deepEqual(host.posted.map((m) => (m.type === 'thumbnail' ? m.src : m.type)), [null, null, `data:image/webp;base64,${data}`]);
    assert.deepEqual([host.errors, source.calls, controller.rejectedMessages], [[], [], 0]);
  });

  it('answers null when the brain cannot be read for a thumbnail, without an error box', async () => {
    source.failWith = new Error('brain.json: locked');
    await controller.receive({ type: 'thumbnail', key: 'settings::network' });
    assert.deepEqual(host.posted, [{ type: 'thumbnail', key: 'settings::network', src: null }]);
    assert.deepEqual(host.errors, []);
    assert.ok(logger.lines.some((line) => line.includes('reading the thumbnail of "settings::network" failed: brain.json: locked')), logger.lines.join('\n'));
  });

  it('rejects malformed `thumbnail` requests', async () => {
    for (const raw of [{ type: 'thumbnail' }, { type: 'thumbnail', key: '' }, { type: 'thumbnail', key: 7 }, { type: 'thumbnail', key: 'k'.repeat(301) }, { type: 'thumbnail', key: 'k', src: 'x' }]) {
      await controller.receive(raw);
    }
    assert.equal(controller.rejectedMessages, 5);
    assert.deepEqual([host.posted, source.reads], [[], 0]);
  });

  it('forgets a screen only after the modal question, then redraws without it and its paths', async () => {
    host.answer = false;
    await controller.receive({ type: 'forgetNode', key: 'settings::network' });
    assert.deepEqual(source.calls, []);
    assert.deepEqual(host.questions[0], {
      message: 'Forget the screen "Network"?',
      detail: 'GAI forgets this screen and the 3 learned paths from or to it. This cannot be undone.',
      action: 'Forget',
    });
    host.answer = true;
    await controller.receive({ type: 'forgetNode', key: 'settings::network' });
    assert.deepEqual(source.calls, ['forgetNode settings::network']);
    const graph = host.graphs().at(-1);
    assert.equal(graph?.nodes.some((n) => n.key === 'settings::network'), false);
    assert.deepEqual(graph?.edges.map((e) => e.id).sort(), ['p-back', 'p-launch', 'p-loop']);
  });

  it('does not offer to forget the launcher or an unknown screen', async () => {
    await controller.receive({ type: 'forgetNode', key: '@launcher' });
    await controller.receive({ type: 'forgetNode', key: 'gone::x' });
    assert.deepEqual([host.questions, source.calls], [[], []]);
    assert.ok(logger.lines.some((line) => line.includes('the launcher is not a stored screen')), logger.lines.join('\n'));
  });

  it('forgets a path after confirmation, naming its ends', async () => {
    await controller.receive({ type: 'forgetPath', id: 'p-net' });
    assert.equal(host.questions[0]?.message, 'Forget the path from "Settings home" to "Network"?');
    assert.match(host.questions[0]?.detail ?? '', /Its 1 step and the record of 3 runs are forgotten/);
    assert.deepEqual(source.calls, ['forgetPath p-net']);
    assert.equal(host.graphs().at(-1)?.edges.some((e) => e.id === 'p-net'), false);
    await controller.receive({ type: 'forgetPath', id: 'p-launch' });
    assert.equal(host.questions[1]?.message, 'Forget the path from "App launcher" to "Settings home"?');
  });

  it('renames through the input box, prefilled with the current label; cancelling changes nothing', async () => {
    await controller.receive({ type: 'renameNode', key: 'settings::wifi' });
    assert.deepEqual(host.asked, [{ current: 'Wi-Fi', screen: 'Wi-Fi' }]);
    assert.deepEqual(source.calls, ['renameNode settings::wifi Renamed']);
    assert.equal(host.graphs().at(-1)?.nodes.find((n) => n.key === 'settings::wifi')?.label, 'Renamed');
    host.label = undefined;
    await controller.receive({ type: 'renameNode', key: 'settings::wifi' });
    assert.equal(source.calls.length, 1);
  });

  it('applies a label the view sent, trimmed, without asking', async () => {
    await controller.receive({ type: 'renameNode', key: 'settings::home', label: '  Home  ' });
    assert.deepEqual([host.asked, source.calls], [[], ['renameNode settings::home Home']]);
  });

  it('reports a failing change, redraws, and does not throw', async () => {
    await controller.receive({ type: 'renameNode', key: 'gone::x', label: 'New' });
    assert.deepEqual(host.errors, ['GAI Brain: no node gone::x']);
    assert.ok(logger.lines.some((line) => line.includes('"renameNode" failed: no node gone::x')));
    assert.equal(host.graphs().length, 1);
  });

  it('tells the view when the brain cannot be read', async () => {
    source.failWith = new Error('brain.json: unexpected end of JSON');
    await controller.receive({ type: 'refresh' });
    assert.deepEqual(host.posted, [{ type: 'error', text: 'Could not read the brain: brain.json: unexpected end of JSON' }]);
  });

  it('redraws when the brain changes elsewhere while shown, and stops listening when disposed', async () => {
    source.listener?.();
    await controller.refresh();
    const shown = host.graphs().length;
    assert.ok(shown >= 1);
    host.shown = false;
    source.listener?.();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(host.graphs().length, shown);
    controller.dispose();
    assert.equal(source.unsubscribed, true);
  });

  it('coalesces refreshes that arrive while one runs', async () => {
    await Promise.all([controller.refresh(), controller.refresh(), controller.refresh(), controller.refresh()]);
    assert.equal(source.reads, 2);
    assert.equal(host.graphs().length, 2);
  });

  it('checks labels for the input box', () => {
    assert.deepEqual([labelProblem('Network'), labelProblem('  '), labelProblem('x'.repeat(121))], [undefined, 'Enter a name for this screen.', 'At most 120 characters (this is 121).']);
  });
});
