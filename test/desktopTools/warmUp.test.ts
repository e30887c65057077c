import { strict as assert } from 'node:assert';
import type { AccessibilityPort, AccessibilityQueryOptions, AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import { warmUpDesktop } from '../../src/desktop/warmUp';
import { createFakeDesktop } from '../support/fakeDesktop';

// The extension starts the desktop engine when the chat opens: the OCR workers, the window
// connection and the trees (the window in front's first), and says what could not start.

class CountingTree implements AccessibilityPort {
  readonly name = 'counting';
  reads: AccessibilityQueryOptions[] = [];
  constructor(private readonly works: boolean) {}
  async available(): Promise<boolean> {
    return true;
  }
  async elements(options: AccessibilityQueryOptions = {}): Promise<AccessibleElement[]> {
    this.reads.push(options);
    if (!this.works) throw new Error('the a11y bus is gone');
    return [];
  }
}

describe('warmUpDesktop', () => {
  it('starts the OCR workers and reads the active window\'s tree, then every window\'s, without any OCR of the screen', async () => {
    const desktop = createFakeDesktop();
    let warmed = 0;
    let recognized = 0;
    desktop.ocr.warmUp = async () => {
      warmed++;
    };
    const recognize = desktop.ocr.recognize.bind(desktop.ocr);
    desktop.ocr.recognize = async (...args) => {
      recognized++;
      return recognize(...args);
    };
    const tree = new CountingTree(true);
    desktop.accessibility = tree;
    const report = await warmUpDesktop(desktop);
    assert.equal(warmed, 1);
    assert.equal(recognized, 0);
    assert.deepEqual(tree.reads.map((r) => r.activeWindowOnly), [true, false], 'the window in front first, then every window');
    assert.deepEqual(report.problems, []);
  });

  it('names the part that could not start and still warms the rest', async () => {
    const desktop = createFakeDesktop();
    let warmed = 0;
    desktop.ocr.warmUp = async () => {
      warmed++;
    };
    desktop.accessibility = new CountingTree(false);
    const report = await warmUpDesktop(desktop);
    assert.equal(warmed, 1);
    assert.deepEqual(report.problems, ['accessibility: the a11y bus is gone']);
  });
});
