// The Routines list's texts in the brain view (pure functions of the webview).
import { strict as assert } from 'node:assert';
import type { RoutineView } from '../../src/shared/brainProtocol';
import { parameterValue, proposalText, routineMeta, routinesDescription } from '../../src/webview/brain/routineFormat';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');

function routine(runs: RoutineView['runs'], steps = 3): RoutineView {
  const step = { id: 's', kind: 'click' as const, words: 'click "OK"', optional: false, typesText: false };
  return { id: 'r', name: 'R', origin: 'recorded', trusted: true, parameters: [], steps: Array.from({ length: steps }, () => step), runs, updatedAt: '2025-03-01T10:00:00.000Z' };
}

describe('brain view routine texts', () => {
  it('says the steps, the runs and when it last ran', () => {
    assert.equal(routineMeta(routine({ successes: 0, failures: 0 }, 1), NOW), '1 step · never run');
    assert.equal(routineMeta(routine({ successes: 1, failures: 0, lastRunAt: '2025-03-01T10:00:00.000Z' }), NOW), '3 steps · 1 run · last run 2 h ago');
    assert.equal(routineMeta(routine({ successes: 1200, failures: 3, lastRunAt: 'bad' }), NOW), '3 steps · 1,203 runs, 3 failed');
  });

  it('counts the routines, saying when some are left out', () => {
    assert.deepEqual([routinesDescription(2, 2), routinesDescription(100, 1300)], ['2', '100 of 1,300']);
  });

  it('shows a parameter\'s default, or that it is a secret', () => {
    assert.deepEqual(
      [parameterValue({ name: 'find', default: 'cat', secret: false }), parameterValue({ name: 'pin', secret: true }), parameterValue({ name: 'x', secret: false }), parameterValue({ name: 'e', default: '', secret: false })],
      ['= "cat"', 'secret, asked at every run', '', '= ""'],
    );
  });

  it('says who proposed a change and why', () => {
    const base = { words: 'click "Replace all"', at: '2025-03-01T10:00:00.000Z' };
    assert.equal(proposalText({ ...base, by: 'model', reason: '"Replace All" not found' }), 'Proposed by the model: click "Replace all" — because "Replace All" not found');
    assert.equal(proposalText({ ...base, by: 'person', reason: ' ' }), 'Proposed by the person: click "Replace all"');
  });
});
