import { strict as assert } from 'node:assert';
import type { Candidate } from '../../src/desktop/grounding/candidate';
import { judgeOcr } from '../../src/desktop/grounding/targetRules';
import { findCandidates, isTimesReadAsX, locateText, type LocateResult } from '../../src/desktop/grounding/textLocator';
import { ocrWords } from '../support/fakeDesktop';

function found(result: LocateResult): Candidate {
  assert.equal(result.status, 'found', JSON.stringify(result));
  if (result.status !== 'found') throw new Error('unreachable');
  return result.match;
}

describe('locateText', () => {
  describe('exact beats substring', () => {
    it('an exact "Save" wins over "Saved"; the substring is not even a candidate', () => {
      const analysis = ocrWords([
        { text: 'Saved', x: 10, y: 10, w: 50, h: 16 },
        { text: 'Save', x: 300, y: 10, w: 40, h: 16 },
      ]);
      const result = locateText(analysis, 'Save');
      const match = found(result);
      assert.equal(match.text, 'Save');
      assert.equal(match.kind, 'exact');
      assert.deepEqual(match.bbox, { x: 300, y: 10, width: 40, height: 16 });
      assert.deepEqual(match.point, { x: 320, y: 18 }, 'clicked in the middle of the word');
      assert.equal(match.source, 'ocr');
      assert.equal(result.status === 'found' && result.alternatives, 0);
    });

    it('"Save As" matches the two-word label exactly, not the lone "Save"', () => {
      const analysis = ocrWords([
        { text: 'Save', x: 10, y: 10, w: 40, h: 16 },
        { text: 'Save', x: 200, y: 10, w: 40, h: 16 },
        { text: 'As', x: 246, y: 10, w: 20, h: 16 },
      ]);
      const match = found(locateText(analysis, 'save as'));
      assert.equal(match.text, 'Save As');
      assert.deepEqual(match.bbox, { x: 200, y: 10, width: 66, height: 16 });
    });

    it('with only "Saved" on screen, "Save" is a substring match', () => {
      const match = found(locateText(ocrWords([{ text: 'Saved', x: 10, y: 10, w: 50, h: 16 }]), 'Save'));
      assert.equal(match.kind, 'substring');
      assert.equal(match.text, 'Saved');
    });

    it('"Save" prefers the button labelled exactly "Save" over the "Save" of "Save As"', () => {
      const analysis = ocrWords([
        { text: 'Save', x: 10, y: 10, w: 40, h: 16 },
        { text: 'Save', x: 200, y: 10, w: 40, h: 16 },
        { text: 'As', x: 246, y: 10, w: 20, h: 16 },
        { text: 'Saved', x: 400, y: 10, w: 50, h: 16 },
      ]);
      const match = found(locateText(analysis, 'Save'));
      assert.deepEqual(match.bbox, { x: 10, y: 10, width: 40, height: 16 });
    });
  });

  describe('phrases', () => {
    it('"Open File" matches neighbouring words of one line, with the union box', () => {
      const analysis = ocrWords([
        { text: 'Open', x: 10, y: 10, w: 40, h: 16 },
        { text: 'File', x: 55, y: 10, w: 30, h: 16 },
      ]);
      const match = found(locateText(analysis, 'Open File'));
      assert.equal(match.kind, 'exact');
      assert.deepEqual(match.bbox, { x: 10, y: 10, width: 75, height: 16 });
      assert.deepEqual(match.point, { x: 48, y: 18 });
    });

    it('does not join two buttons far apart on the same row into a phrase', () => {
      const analysis = ocrWords([
        { text: 'Open', x: 10, y: 10, w: 40, h: 16 },
        { text: 'File', x: 300, y: 10, w: 30, h: 16 },
      ]);
      assert.equal(locateText(analysis, 'Open File').status, 'not_found');
    });
  });

  describe('normalization', () => {
    const analysis = ocrWords([
      { text: 'Name:', x: 10, y: 10, w: 44, h: 16 },
      { text: '+', x: 100, y: 10, w: 10, h: 16 },
      { text: '=', x: 200, y: 10, w: 10, h: 16 },
      { text: '<-', x: 300, y: 10, w: 14, h: 16 },
      { text: 'EXPORT', x: 10, y: 60, w: 60, h: 16 },
    ]);

    it('ignores case', () => {
      const match = found(locateText(analysis, 'export'));
      assert.equal(match.text, 'EXPORT');
      assert.equal(match.kind, 'exact');
    });

    it('ignores punctuation around a word ("Name" finds "Name:", and "Name:" too)', () => {
      assert.equal(found(locateText(analysis, 'name')).text, 'Name:');
      assert.equal(found(locateText(analysis, 'Name:')).kind, 'exact');
    });

    for (const [glyph, x] of [['+', 100], ['=', 200], ['<-', 300]] as const) {
      it(`finds the single glyph "${glyph}"`, () => {
        const match = found(locateText(analysis, glyph));
        assert.equal(match.text, glyph);
        assert.equal(match.bbox.x, x);
      });
    }
  });

  describe('repeats', () => {
    // Three "Edit" in reading order: top-left, top-right, then a lower row.
    const edits = ocrWords([
      { text: 'Edit', x: 400, y: 200, w: 30, h: 16 },
      { text: 'Edit', x: 300, y: 10, w: 30, h: 16 },
      { text: 'Edit', x: 10, y: 11, w: 30, h: 16 },
      { text: 'Cancel', x: 360, y: 230, w: 50, h: 16 },
    ]);

    it('occurrence counts in reading order (top to bottom, left to right)', () => {
      assert.equal(found(locateText(edits, 'Edit', { occurrence: 1 })).bbox.x, 10);
      assert.equal(found(locateText(edits, 'Edit', { occurrence: 2 })).bbox.x, 300);
      assert.equal(found(locateText(edits, 'Edit', { occurrence: 3 })).bbox.x, 400);
    });

    it('an occurrence beyond the count is not found, with the count in the reason', () => {
      const result = locateText(edits, 'Edit', { occurrence: 4 });
      assert.equal(result.status, 'not_found');
      assert.match(result.status === 'not_found' ? (result.reason ?? '') : '', /3 time/);
    });

    it('near a text picks the closest candidate', () => {
      assert.deepEqual(found(locateText(edits, 'Edit', { near: 'Cancel' })).bbox, { x: 400, y: 200, width: 30, height: 16 });
    });

    it('near a point picks the closest candidate', () => {
      assert.equal(found(locateText(edits, 'Edit', { near: { x: 0, y: 0 } })).bbox.x, 10);
      assert.equal(found(locateText(edits, 'Edit', { near: { x: 320, y: 30 } })).bbox.x, 300);
    });

    it('near an anchor that is not on screen is not found', () => {
      const result = locateText(edits, 'Edit', { near: 'Nowhere' });
      assert.equal(result.status, 'not_found');
      assert.match(result.status === 'not_found' ? (result.reason ?? '') : '', /Nowhere/);
    });

    it('without occurrence or near, returns every candidate with its box (ambiguous)', () => {
      const result = locateText(edits, 'edit');
      assert.equal(result.status, 'ambiguous');
      if (result.status !== 'ambiguous') return;
      assert.deepEqual(
        result.candidates.map((c) => c.bbox),
        [
          { x: 10, y: 11, width: 30, height: 16 },
          { x: 300, y: 10, width: 30, height: 16 },
          { x: 400, y: 200, width: 30, height: 16 },
        ],
      );
    });
  });

  describe('near misses', () => {
    const analysis = ocrWords([
      { text: 'Save', x: 10, y: 10, w: 40, h: 16 },
      { text: 'Quit', x: 100, y: 10, w: 40, h: 16 },
    ]);

    it('not found suggests similar words ("Sve" → "Save")', () => {
      const result = locateText(analysis, 'Sve');
      assert.equal(result.status, 'not_found');
      assert.deepEqual(result.status === 'not_found' && result.suggestions, ['Save']);
    });

    it('matches fuzzily (one edit) when nothing exact or substring exists', () => {
      const match = found(locateText(ocrWords([{ text: 'Settings', x: 10, y: 10, w: 70, h: 16 }]), 'Setings'));
      assert.equal(match.kind, 'fuzzy');
      assert.equal(match.text, 'Settings');
    });

    it('a substring match suppresses fuzzy ones', () => {
      const both = ocrWords([
        { text: 'Printer', x: 10, y: 10, w: 60, h: 16 },
        { text: 'Prant', x: 10, y: 80, w: 50, h: 16 },
      ]);
      const candidates = findCandidates(both, 'Print');
      assert.deepEqual(candidates.map((c) => [c.text, c.kind]), [['Printer', 'substring']]);
    });

    it('an exact match suppresses fuzzy ones', () => {
      const both = ocrWords([
        { text: 'Settings', x: 10, y: 10, w: 70, h: 16 },
        { text: 'Setting', x: 10, y: 80, w: 60, h: 16 },
      ]);
      assert.deepEqual(findCandidates(both, 'Settings').map((c) => [c.text, c.kind]), [['Settings', 'exact']]);
    });

    it('short words are not matched fuzzily (too many false friends)', () => {
      assert.equal(locateText(ocrWords([{ text: 'Cut', x: 10, y: 10, w: 30, h: 16 }]), 'Cat').status, 'not_found');
    });
  });
  describe('glyphs OCR cannot tell apart (issue 10)', () => {
    it('a minus sign U+2212 is found where OCR read a hyphen or an em dash, as an exact match', () => {
      for (const read of ['-', '—', '–']) {
        const match = found(locateText(ocrWords([{ text: read, x: 10, y: 10, w: 10, h: 2 }]), '\u2212'));
        assert.equal(match.kind, 'exact', read);
      }
    });

    it('"×" is never found where OCR read the letter x inside a word or beside others (issue 19); a lone x may be one; "‹ ›" is where it read "< >"', () => {
      const inWords = ocrWords([
        { text: 'Exit', x: 40, y: 10, w: 30, h: 8 },
        { text: 'axb', x: 400, y: 10, w: 24, h: 8 },
        { text: 'x2', x: 500, y: 10, w: 16, h: 8 },
        { text: '|x|', x: 600, y: 10, w: 16, h: 8 },
        { text: 'a', x: 700, y: 10, w: 8, h: 8 },
        { text: 'x', x: 711, y: 10, w: 8, h: 8 },
        { text: 'b', x: 722, y: 10, w: 8, h: 8 },
      ]);
      assert.equal(locateText(inWords, '×').status, 'not_found');
      assert.equal(locateText(inWords, 'a×b').status, 'not_found');
      assert.equal(judgeOcr('×', findCandidates(inWords, '×')).sure.length, 0);
      const lone = ocrWords([
        { text: 'x', x: 10, y: 10, w: 8, h: 8 },
        { text: '<', x: 100, y: 10, w: 4, h: 7 },
        { text: '>', x: 200, y: 10, w: 4, h: 7 },
      ]);
      const times = found(locateText(lone, '×'));
      assert.equal(times.text, 'x', 'the reading keeps what was read, for the tree to judge');
      assert.ok(isTimesReadAsX('×', times));
      // The letter is still the letter.
      assert.deepEqual(found(locateText(lone, 'x')).bbox, { x: 10, y: 10, width: 8, height: 8 });
      assert.equal(found(locateText(lone, '‹')).bbox.x, 100);
      assert.equal(found(locateText(lone, '›')).bbox.x, 200);
    });

    it('"×" is found where OCR read a multiplication sign or a look-alike cross (✕)', () => {
      for (const read of ['×', '✕']) {
        const match = found(locateText(ocrWords([{ text: read, x: 10, y: 10, w: 8, h: 8 }]), '×'));
        assert.equal(match.kind, 'exact', read);
      }
    });

    it('"…" is found where OCR read three dots', () => {
      assert.equal(found(locateText(ocrWords([{ text: '...', x: 10, y: 10, w: 12, h: 2 }]), '…')).kind, 'exact');
    });

    it('a lone "!" is not taken for an "I" or a "1" (a glyph is not a misread letter)', () => {
      const analysis = ocrWords([
        { text: 'I', x: 10, y: 10, w: 3, h: 12 },
        { text: '1', x: 100, y: 10, w: 6, h: 12 },
      ]);
      assert.equal(locateText(analysis, '!').status, 'not_found');
    });
  });

  describe('letters OCR confuses', () => {
    it('"I agree" read as "1 agree" is a fuzzy match, never an exact one', () => {
      const analysis = ocrWords([
        { text: '1', x: 10, y: 10, w: 6, h: 12 },
        { text: 'agree', x: 20, y: 12, w: 40, h: 10 },
      ]);
      const match = found(locateText(analysis, 'I agree'));
      assert.equal(match.kind, 'fuzzy');
      assert.deepEqual(match.bbox, { x: 10, y: 10, width: 50, height: 12 });
    });

    it('an exact reading elsewhere beats the confusable one', () => {
      const analysis = ocrWords([
        { text: 'Step', x: 10, y: 10, w: 35, h: 12 },
        { text: 'l', x: 50, y: 10, w: 3, h: 12 },
        { text: 'Step', x: 10, y: 80, w: 35, h: 12 },
        { text: '1', x: 50, y: 80, w: 6, h: 12 },
      ]);
      const candidates = findCandidates(analysis, 'Step 1');
      assert.deepEqual(candidates.map((c) => [c.bbox.y, c.kind]), [[80, 'exact']]);
    });
  });

  describe('names with dots and slashes', () => {
    it('"settings.toml" read split at its dot ("settings." "toml") is an exact match over both words', () => {
      const analysis = ocrWords([
        { text: 'settings.', x: 10, y: 10, w: 64, h: 13 },
        { text: 'toml', x: 80, y: 10, w: 30, h: 13 },
      ]);
      const match = found(locateText(analysis, 'settings.toml'));
      assert.equal(match.kind, 'exact');
      assert.deepEqual(match.bbox, { x: 10, y: 10, width: 100, height: 13 });
    });

    it('"README.md" read as "README" "." "md" is exact; "package json" with its dot lost is only fuzzy', () => {
      const analysis = ocrWords([
        { text: 'README', x: 10, y: 10, w: 47, h: 11 },
        { text: '.', x: 59, y: 18, w: 2, h: 2 },
        { text: 'md', x: 63, y: 10, w: 15, h: 11 },
        { text: 'package', x: 10, y: 60, w: 53, h: 13 },
        { text: 'json', x: 70, y: 60, w: 31, h: 13 },
      ]);
      assert.equal(found(locateText(analysis, 'README.md')).kind, 'exact');
      assert.equal(found(locateText(analysis, 'package.json')).kind, 'fuzzy');
    });

    it('junk read off an icon beside the name ("[[") does not make a second candidate', () => {
      const analysis = ocrWords([
        { text: 'settings.', x: 10, y: 10, w: 64, h: 13 },
        { text: 'toml', x: 80, y: 10, w: 30, h: 13 },
        { text: '[[', x: 118, y: 6, w: 18, h: 22 },
      ]);
      assert.equal(findCandidates(analysis, 'settings.toml').length, 1);
    });
  });

  describe('substrings', () => {
    it('a query is a substring only from the start of a word: "Pro" is not found inside "Approve"', () => {
      const analysis = ocrWords([{ text: 'Approve', x: 10, y: 10, w: 60, h: 12 }]);
      assert.equal(locateText(analysis, 'Pro').status, 'not_found');
      assert.equal(found(locateText(analysis, 'Appro')).kind, 'substring');
    });
  });

  describe('lines beside a tall neighbour', () => {
    it('a tall junk word spanning two rows does not merge them: both two-word labels are found', () => {
      const analysis = {
        fullText: '',
        elements: [
          { text: 'soo', confidence: 0.3, bbox: { x: 200, y: 0, width: 60, height: 50 }, level: 'word' as const },
          { text: 'Privacy', confidence: 0.95, bbox: { x: 10, y: 10, width: 31, height: 9 }, level: 'word' as const },
          { text: 'policy', confidence: 0.95, bbox: { x: 46, y: 10, width: 25, height: 9 }, level: 'word' as const },
          { text: 'Last', confidence: 0.95, bbox: { x: 12, y: 30, width: 20, height: 8 }, level: 'word' as const },
          { text: 'edited', confidence: 0.95, bbox: { x: 36, y: 30, width: 30, height: 8 }, level: 'word' as const },
        ],
      };
      assert.deepEqual(found(locateText(analysis, 'Privacy policy')).bbox, { x: 10, y: 10, width: 61, height: 9 });
      assert.deepEqual(found(locateText(analysis, 'Last edited')).bbox, { x: 12, y: 30, width: 54, height: 8 });
    });
  });
});
