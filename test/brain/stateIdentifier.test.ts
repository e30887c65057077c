// Identifying the current screen among known nodes: hash, then similarity, else a new node;
// a labeller (the model) only for new nodes.
import * as assert from 'node:assert/strict';
import type { BrainNode } from '../../src/navigation/store/brainTypes';
import type { ScreenText } from '../../src/navigation/recognition/fingerprint';
import { identifyState, matchState, proposeLabel } from '../../src/navigation/recognition/stateIdentifier';
import { displayPage, folderPage, homePage, networkPage, nodeFor, T0 } from './support/brainFixtures';

describe('brain state identifier', function () {
  const known = [nodeFor(networkPage()), nodeFor(displayPage()), nodeFor(homePage())];

  it('makes a new node for an unknown screen, keyed programName::stateHash and labelled from title and heading', function () {
    const result = matchState(networkPage(), [], { now: () => T0 });
    assert.equal(result.isNew, true);
    assert.equal(result.matchedBy, 'new');
    assert.equal(result.node.key, `gai-settings::${result.node.stateHash}`);
    assert.equal(result.node.label, 'Settings — Network');
    assert.equal(result.node.firstSeen, '2025-03-01T10:00:00.000Z');
    assert.equal(result.node.visits, 1);
  });

  it('finds the same page with another clock by its hash', function () {
    const result = matchState(networkPage('4:56'), known);
    assert.deepEqual([result.isNew, result.matchedBy, result.node.key, result.similarity], [false, 'hash', known[0]!.key, 1]);
  });

  it('finds the same page with one more line by similarity', function () {
    const result = matchState(networkPage('4:56', ['Bluetooth tethering']), known);
    assert.equal(result.isNew, false);
    assert.equal(result.matchedBy, 'similarity');
    assert.equal(result.node.key, known[0]!.key);
    assert.ok(result.similarity >= 0.8 && result.similarity < 1);
  });

  it('makes a new node for another page, reporting the closest known one', function () {
    const sound: ScreenText = { ...homePage(), lines: [...homePage().lines.slice(0, 8), 'Sound', 'Output volume', 'Input device', 'Apply', 'Cancel'], headings: ['Sound'] };
    const result = matchState(sound, known);
    assert.equal(result.isNew, true);
    assert.ok(result.closest && result.closest.similarity < 0.8 && result.closest.similarity > 0, JSON.stringify(result.closest));
    assert.equal(result.node.label, 'Settings — Sound');
    assert.equal(matchState({ ...networkPage(), programName: 'other' }, known).isNew, true);
    assert.equal(matchState({ ...networkPage(), programName: ' ' }, known).node.programName, 'unknown');
  });

  it('without headings, labels a new node with a line no other page of the app shows (not the sidebar)', function () {
    const plain: ScreenText = { ...displayPage(), headings: [] };
    const others = [nodeFor(networkPage()), nodeFor(homePage())];
    // "Display" is in the sidebar of every page: the first line only this page shows.
    assert.equal(proposeLabel(plain, others), 'Settings — Resolution');
    assert.equal(proposeLabel({ ...folderPage(2), headings: [] }, []), 'Documents — Files', 'nothing to compare with: the title');
    assert.equal(proposeLabel({ programName: 'xterm', windowTitle: '', lines: [] }, []), 'xterm');
  });

  it('asks the labeller only for new nodes, and keeps the proposed label when it fails', async function () {
    const asked: string[] = [];
    const labeller = async (request: { proposedLabel: string }) => {
      asked.push(request.proposedLabel);
      return '  Network settings  ';
    };
    const fresh = await identifyState(networkPage(), [], { labeller });
    assert.equal(fresh.node.label, 'Network settings');
    const again = await identifyState(networkPage('1:11'), [fresh.node], { labeller });
    assert.equal(again.isNew, false);
    assert.deepEqual(asked, ['Settings — Network'], 'not asked for a known node');
    const failing = await identifyState(displayPage(), [], {
      labeller: async () => {
        throw new Error('model unavailable');
      },
    });
    assert.equal(failing.node.label, 'Settings — Display');
    assert.equal(failing.labelError, 'model unavailable');
  });

  it('prefers the most visited node when two score the same', function () {
    const a: BrainNode = { ...known[0]!, key: 'gai-settings::aaaa', stateHash: 'aaaa', visits: 1 };
    const b: BrainNode = { ...known[0]!, key: 'gai-settings::bbbb', stateHash: 'bbbb', visits: 9 };
    assert.equal(matchState(networkPage('1:00', ['Bluetooth tethering']), [a, b]).node.key, 'gai-settings::bbbb');
  });

  it('identifies among 100 nodes quickly', function () {
    const nodes: BrainNode[] = [];
    for (let i = 0; i < 100; i++) {
      const page = i % 2 === 0 ? networkPage() : displayPage();
      nodes.push(nodeFor({ ...page, programName: `app-${i % 10}`, lines: [...page.lines, `Item ${i} alpha`, `Section ${String.fromCharCode(97 + (i % 26))}${i}x`] }));
    }
    const probe = { ...networkPage('8:08', ['Bluetooth']), programName: 'app-4', lines: [...networkPage('8:08', ['Bluetooth']).lines, 'Item 44 alpha', 'Section s44x'] };
    matchState(probe, nodes); // warm the per-fingerprint caches as a running brain would have them
    const runs = 50;
    const started = performance.now();
    for (let i = 0; i < runs; i++) matchState(probe, nodes);
    const perCall = (performance.now() - started) / runs;
    const result = matchState(probe, nodes);
    assert.equal(result.isNew, false);
    assert.ok(perCall < 20, `identify among 100 nodes: ${perCall.toFixed(2)} ms`);
  });
});
