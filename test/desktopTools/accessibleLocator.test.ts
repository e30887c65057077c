import { strict as assert } from 'node:assert';
import { findAccessibleCandidates, locateAccessible } from '../../src/desktop/grounding/accessibleLocator';
import type { AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import type { Candidate } from '../../src/desktop/grounding/candidate';
import type { LocateResult } from '../../src/desktop/grounding/textLocator';

function el(name: string, x: number, y: number, w = 59, h = 34, role = 'push button', text?: string): AccessibleElement {
  return { name, role, bbox: { x, y, width: w, height: h }, states: ['enabled', 'showing', 'visible'], ...(text !== undefined ? { text } : {}) };
}

function found(result: LocateResult): Candidate {
  assert.equal(result.status, 'found', JSON.stringify(result));
  if (result.status !== 'found') throw new Error('unreachable');
  return result.match;
}

// galculator's basic mode, as AT-SPI reports it (toggle buttons, a text view as the display).
const calculator: AccessibleElement[] = [
  el('', 801, 408, 317, 52, 'text', '9'),
  el('C', 955, 473, 50, 34, 'toggle button'),
  el('M+', 1060, 519, 59, 34, 'toggle button'),
  el('7', 800, 559, 59, 34, 'toggle button'),
  el('8', 865, 559, 59, 34, 'toggle button'),
  el('9', 930, 559, 59, 34, 'toggle button'),
  el('=', 1060, 639, 59, 74, 'toggle button'),
  el('+/-', 930, 679, 59, 34, 'toggle button'),
  el('+', 995, 679, 59, 34, 'toggle button'),
];

describe('locateAccessible', () => {
  it('finds single glyphs by their exact name and gives the centre of the box', () => {
    const equals = found(locateAccessible(calculator, '='));
    assert.deepEqual(equals.bbox, { x: 1060, y: 639, width: 59, height: 74 });
    assert.deepEqual(equals.point, { x: 1090, y: 676 });
    assert.equal(equals.kind, 'exact');
    assert.equal(equals.whole, true);
    assert.equal(equals.confidence, 1);
    assert.equal(equals.source, 'accessibility', 'a candidate says which source it came from');
    assert.equal(found(locateAccessible(calculator, '7')).point.x, 830);
  });

  it('"+" is the plus button, not "+/-" or "M+"', () => {
    const plus = found(locateAccessible(calculator, '+'));
    assert.equal(plus.text, '+');
    assert.equal(plus.bbox.x, 995);
  });

  it('a button name beats the same text inside a text field', () => {
    assert.equal(found(locateAccessible(calculator, '9')).bbox.y, 559);
  });

  it('the content of a text field is found when no name matches', () => {
    const display = found(locateAccessible([el('', 10, 10, 300, 30, 'entry', 'hello world'), el('OK', 10, 60)], 'hello world'));
    assert.equal(display.text, 'hello world');
    assert.equal(display.kind, 'exact');
  });

  it('ignores case, spacing and the punctuation around words', () => {
    const elements = [el('Preferences…', 10, 10, 120, 25, 'menu item'), el('Save  As', 10, 40, 80, 25)];
    assert.equal(found(locateAccessible(elements, 'preferences')).text, 'Preferences…');
    assert.equal(found(locateAccessible(elements, 'save as')).text, 'Save  As');
  });

  it('an exact name beats a substring; a substring is used when nothing else matches', () => {
    const elements = [el('Save As…', 10, 10), el('Save', 100, 10)];
    assert.equal(found(locateAccessible(elements, 'Save')).bbox.x, 100);
    const partial = found(locateAccessible([el('Open File', 10, 10, 90, 25)], 'open'));
    assert.equal(partial.kind, 'substring');
    assert.equal(partial.whole, false);
  });

  it('does not match one character inside longer names', () => {
    const result = locateAccessible([el('M+', 10, 10), el('+/-', 80, 10)], '+');
    assert.equal(result.status, 'not_found');
  });

  it('lists the candidates when a name repeats, in reading order', () => {
    const elements = [el('OK', 300, 200), el('OK', 100, 200), el('OK', 100, 50)];
    const result = locateAccessible(elements, 'ok');
    assert.equal(result.status, 'ambiguous');
    if (result.status !== 'ambiguous') return;
    assert.deepEqual(
      result.candidates.map((c) => [c.bbox.x, c.bbox.y]),
      [
        [100, 50],
        [100, 200],
        [300, 200],
      ],
    );
  });

  it('picks a repeat by occurrence or by the nearest point or text', () => {
    const elements = [el('OK', 100, 50), el('OK', 100, 200), el('Cancel', 200, 200)];
    assert.equal(found(locateAccessible(elements, 'OK', { occurrence: 2 })).bbox.y, 200);
    assert.equal(found(locateAccessible(elements, 'OK', { near: { x: 90, y: 40 } })).bbox.y, 50);
    const near = locateAccessible(elements, 'OK', { near: 'Cancel' });
    assert.equal(found(near).bbox.y, 200);
    assert.equal(near.status === 'found' && near.alternatives, 1);
    const missing = locateAccessible(elements, 'OK', { occurrence: 3 });
    assert.equal(missing.status, 'not_found');
    assert.match(missing.status === 'not_found' ? (missing.reason ?? '') : '', /appears 2 time/);
    const noAnchor = locateAccessible(elements, 'OK', { near: 'Help' });
    assert.match(noAnchor.status === 'not_found' ? (noAnchor.reason ?? '') : '', /anchor "Help"/);
  });

  it('a label inside a button of the same name is one target: the button', () => {
    const elements = [el('General', 10, 10, 100, 30, 'page tab'), el('General', 20, 15, 60, 20, 'label')];
    const match = found(locateAccessible(elements, 'General'));
    assert.deepEqual(match.bbox, { x: 10, y: 10, width: 100, height: 30 });
    // Clicked on the text itself: inside the tab and the label alike (a wide cell, a left-aligned text).
    assert.deepEqual(match.point, { x: 50, y: 25 });
  });

  it('suggests close names when nothing matches, and rejects an empty query', () => {
    const result = locateAccessible([el('Cancel', 10, 10), el('Apply', 80, 10)], 'Cancle');
    assert.equal(result.status, 'not_found');
    assert.deepEqual(result.status === 'not_found' && result.suggestions, ['Cancel']);
    const empty = locateAccessible(calculator, '   ');
    assert.equal(empty.status, 'not_found');
    assert.deepEqual(findAccessibleCandidates([], 'x'), []);
  });
});
