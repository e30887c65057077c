// Issue 19's OCR-side rules for web pages read without a tree: `near` by row, a phrase wrapped
// over two lines, a phrase with one letter misread, one control found twice.
import { strict as assert } from 'node:assert';
import type { Candidate } from '../../src/desktop/grounding/candidate';
import { mergeSameControl } from '../../src/desktop/grounding/sameControl';
import { judgeOcr, pick } from '../../src/desktop/grounding/targetRules';
import { findCandidates, locateText } from '../../src/desktop/grounding/textLocator';
import { anchorOf } from '../../src/desktop/grounding/nearAnchor';
import { spansOthers } from '../../src/desktop/ocr/layeredOcr';
import { ocrWords } from '../support/fakeDesktop';

function ocrCandidate(text: string, x: number, y: number, width: number, height: number, confidence = 0.9, kind: Candidate['kind'] = 'exact'): Candidate {
  return { text, bbox: { x, y, width, height }, point: { x: x + width / 2, y: y + height / 2 }, confidence, kind, whole: true, source: 'ocr' };
}

describe('web page rules (issue 19)', () => {
  describe('near: the anchor\'s row first', () => {
    // Rows of a list whose action buttons (read with their frames, 26 px high) do not stand in
    // one column: the Edit of the row above has the centre nearer to Alan's name.
    const rows = ocrWords([
      { text: 'Ada', x: 20, y: 100, w: 30, h: 12 },
      { text: 'Lovelace', x: 54, y: 100, w: 60, h: 12 },
      { text: 'Edit', x: 160, y: 100, w: 30, h: 26 },
      { text: 'Alan', x: 20, y: 132, w: 34, h: 12 },
      { text: 'Turing', x: 58, y: 132, w: 50, h: 12 },
      { text: 'Edit', x: 300, y: 128, w: 30, h: 26 },
    ]);

    it('"Edit" near "Alan Turing" is the Edit on Alan\'s line, not the nearer one of the row above', () => {
      const edits = findCandidates(rows, 'Edit');
      const anchor = findCandidates(rows, 'Alan Turing')[0]!;
      const picked = pick(edits, { near: 'Alan Turing' }, anchorOf(anchor));
      assert.equal(picked?.match?.bbox.y, 128);
      const result = locateText(rows, 'Edit', { near: 'Alan Turing' });
      assert.equal(result.status === 'found' && result.match.bbox.y, 128);
    });

    it('two candidates equally near and neither on the anchor\'s row are ambiguous, not guessed', () => {
      const edits = [ocrCandidate('Edit', 300, 60, 30, 12), ocrCandidate('Edit', 300, 140, 30, 12)];
      const picked = pick(edits, { near: 'x' }, { x: 315, y: 106, bbox: { x: 300, y: 100, width: 30, height: 12 } });
      assert.equal(picked?.match, undefined);
      assert.equal(picked?.ambiguous?.length, 2);
    });

    it('off the row, a clearly nearer candidate is still picked', () => {
      const edits = [ocrCandidate('Edit', 300, 60, 30, 12), ocrCandidate('Edit', 300, 300, 30, 12)];
      const picked = pick(edits, { near: 'x' }, { x: 315, y: 100, bbox: { x: 300, y: 94, width: 30, height: 12 } });
      assert.equal(picked?.match?.bbox.y, 60);
    });
  });

  describe('a phrase wrapped over two lines', () => {
    it('"Resend invite" centred on two lines of a narrow button is one exact candidate, clicked on its text', () => {
      const analysis = ocrWords([
        { text: 'Guest', x: 600, y: 284, w: 37, h: 9 },
        { text: 'Resend', x: 818, y: 275, w: 46, h: 10 },
        { text: 'invite', x: 823, y: 291, w: 35, h: 10 },
      ]);
      const [match, ...rest] = findCandidates(analysis, 'Resend invite');
      assert.equal(rest.length, 0);
      assert.equal(match?.kind, 'exact');
      assert.equal(match?.whole, true);
      assert.deepEqual(match?.bbox, { x: 818, y: 275, width: 46, height: 26 });
      assert.deepEqual(match?.point, { x: 841, y: 280 }, 'on the wider line of the label');
    });

    it('a left-aligned paragraph continues on the next line ("… current page" / "only.")', () => {
      const analysis = ocrWords([
        ...'Filters apply to the current page'.split(' ').map((text, i) => ({ text, x: 18 + i * 40, y: 300, w: 36, h: 10 })),
        { text: 'only.', x: 18, y: 314, w: 28, h: 10 },
      ]);
      assert.equal(findCandidates(analysis, 'Filters apply to the current page only.')[0]?.kind, 'exact');
    });

    it('words of two columns do not make a phrase, nor do lines far apart', () => {
      const analysis = ocrWords([
        { text: 'Resend', x: 100, y: 100, w: 46, h: 10 },
        { text: 'invite', x: 400, y: 116, w: 35, h: 10 },
        { text: 'Send', x: 100, y: 200, w: 30, h: 10 },
        { text: 'invitation', x: 100, y: 260, w: 60, h: 10 },
      ]);
      assert.deepEqual(findCandidates(analysis, 'Resend invite'), []);
      assert.deepEqual(findCandidates(analysis, 'Send invitation'), []);
    });
  });

  describe('a phrase with one letter misread', () => {
    it('"Contact support" read as "Contact suoport" is sure', () => {
      const judged = judgeOcr('Contact support', [ocrCandidate('Contact suoport', 18, 263, 112, 13, 0.62, 'fuzzy')]);
      assert.equal(judged.sure.length, 1);
    });

    it('a word added or dropped, or a short word, is not a misreading', () => {
      for (const read of ['Contact supports', 'Contact suport', 'Contact us']) {
        assert.equal(judgeOcr('Contact support', [ocrCandidate(read, 18, 263, 112, 13, 0.62, 'fuzzy')]).sure.length, 0, read);
      }
      assert.equal(judgeOcr('Open file', [ocrCandidate('Open fite', 0, 0, 60, 12, 0.62, 'fuzzy')]).sure.length, 0);
      assert.equal(judgeOcr('Contact support', [ocrCandidate('Contaet suoport', 18, 263, 112, 13, 0.62, 'fuzzy')]).sure.length, 0, 'two words off');
    });

    it('a long phrase of small grey text with one short word misread ("rom" for "from") is found and sure; a shorter one is not', () => {
      const analysis = ocrWords(
        ['We', 'send', 'the', 'invitation', 'rom', 'noreply@acme.test'].map((text, i) => ({ text, x: 240 + i * 70, y: 541, w: 60, h: 10, confidence: 0.9 })),
      );
      const [match] = findCandidates(analysis, 'We send the invitation from noreply@acme.test');
      assert.equal(match?.kind, 'fuzzy');
      assert.equal(judgeOcr('We send the invitation from noreply@acme.test', [match!]).sure.length, 1);
      assert.deepEqual(findCandidates(ocrWords([{ text: 'rom', x: 0, y: 0, w: 20, h: 10 }, { text: 'noreply', x: 24, y: 0, w: 50, h: 10 }]), 'from noreply'), []);
      assert.equal(judgeOcr('Send the invite now', [ocrCandidate('Send the invites now', 0, 0, 100, 10, 0.9, 'fuzzy')]).sure.length, 1);
      assert.equal(judgeOcr('Send the invite now', [ocrCandidate('Send tho invites now', 0, 0, 100, 10, 0.9, 'fuzzy')]).sure.length, 0, 'two words off');
    });

    it('"Contact supplier" is never found for "Contact support"', () => {
      const analysis = ocrWords([
        { text: 'Contact', x: 18, y: 263, w: 53, h: 10 },
        { text: 'supplier', x: 77, y: 263, w: 58, h: 13 },
      ]);
      assert.deepEqual(findCandidates(analysis, 'Contact support'), []);
    });
  });

  describe('a word box over its neighbours', () => {
    it('"Directory" boxed over "Teams" and "Reports" (a dark header read in a crop) is never sure', () => {
      const analysis = ocrWords([
        { text: 'Directory', x: 153, y: 33, w: 192, h: 23, confidence: 0.86 },
        { text: 'Reports', x: 291, y: 33, w: 54, h: 23 },
        { text: 'Teams', x: 228, y: 29, w: 48, h: 38, confidence: 0.72 },
      ]);
      const [match] = findCandidates(analysis, 'Directory');
      assert.ok(match && match.confidence < 0.25, JSON.stringify(match));
      assert.equal(judgeOcr('Directory', [match]).sure.length, 0);
    });

    it('such a word does not count as read for OCR\'s second look; a word with a junk glyph inside still does', () => {
      const [directory, reports, teams] = ocrWords([
        { text: 'Directory', x: 153, y: 33, w: 192, h: 23 },
        { text: 'Reports', x: 291, y: 33, w: 54, h: 23 },
        { text: 'Teams', x: 400, y: 33, w: 48, h: 23 },
        { text: '|', x: 420, y: 35, w: 2, h: 20 },
      ]).elements.filter((e) => e.level === 'word');
      const words = [directory!, reports!, teams!];
      assert.equal(spansOthers(directory!, words), true);
      assert.equal(spansOthers(reports!, words), false);
      assert.equal(spansOthers(teams!, [...words, { text: '|', confidence: 0.3, bbox: { x: 420, y: 35, width: 2, height: 20 }, level: 'word' }]), false);
    });
  });

  describe('one control found twice', () => {
    it('"< Previous" and "Previous" over the same link are one candidate', () => {
      const merged = mergeSameControl([ocrCandidate('< Previous', 414, 380, 70, 14), ocrCandidate('Previous', 426, 380, 58, 14)]);
      assert.equal(merged.length, 1);
      assert.equal(merged[0]!.text, '< Previous');
    });

    it('overlapping boxes with unrelated texts, or the same text far apart, stay two', () => {
      assert.equal(mergeSameControl([ocrCandidate('Edit', 300, 100, 30, 12), ocrCandidate('Delete', 305, 100, 40, 12)]).length, 2);
      assert.equal(mergeSameControl([ocrCandidate('Previous', 100, 100, 58, 14), ocrCandidate('Previous', 100, 400, 58, 14)]).length, 2);
    });
  });
});
