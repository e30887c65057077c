// Usage line, cost estimate, scrolling and render pacing of the chat view, and the composer's
// input limit matching the protocol's.
import { strict as assert } from 'node:assert';
import { MAX_CHAT_INPUT } from '../../src/shared/protocol';
import { isNearBottom, renderDelay } from '../../src/webview/chatLog';
import { MAX_INPUT } from '../../src/webview/controls';
import { estimateCost, formatCost, usageLines } from '../../src/webview/usage';

describe('webview usage, scrolling and pacing', () => {
  it('estimates cost at claude-sonnet-4-6 prices ($3 / MTok in, $15 / MTok out)', () => {
    assert.equal(estimateCost({ requestInput: 0, requestOutput: 0, sessionInput: 1_000_000, sessionOutput: 0 }), 3);
    assert.equal(estimateCost({ requestInput: 0, requestOutput: 0, sessionInput: 0, sessionOutput: 1_000_000 }), 15);
    assert.equal(formatCost(0.0123456), '$0.0123');
    assert.equal(formatCost(12.345), '$12.35');
    const lines = usageLines({ requestInput: 1200, requestOutput: 80, sessionInput: 45_000, sessionOutput: 3_000 });
    assert.equal(lines.request, 'Last request: 1,200 in / 80 out');
    assert.equal(lines.session, 'Session: 45,000 in / 3,000 out');
    assert.equal(lines.cost, '≈ $0.1800 (estimate)');
    assert.match(lines.costTitle, /claude-sonnet-4-6/);
  });

  it('follows the newest entry only when at (or near) the bottom', () => {
    assert.ok(isNearBottom(600, 400, 1000));
    assert.ok(isNearBottom(580, 400, 1000));
    assert.ok(!isNearBottom(300, 400, 1000));
    assert.ok(isNearBottom(0, 400, 200)); // nothing to scroll
  });

  it('spaces out renders after a slow one, up to a limit', () => {
    assert.equal(renderDelay(0, 0), 0);
    assert.equal(renderDelay(10, 5), 25);
    assert.equal(renderDelay(10, 100), 0);
    assert.equal(renderDelay(1000, 0), 250);
  });

  it('limits the composer to the protocol maximum', () => {
    assert.equal(MAX_INPUT, MAX_CHAT_INPUT);
  });
});
