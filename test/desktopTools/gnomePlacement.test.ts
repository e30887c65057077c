// Placing a Wayland window's accessibility tree on the screen by the screen's text (GNOME):
// the vote between label boxes and OCR words, and the placer that checks a place before use.
import { strict as assert } from 'node:assert';
import type { BBox } from '../../src/common/geometry';
import type { OcrAnalysis } from '../../src/desktop/ocr/ocrTypes';
import type { OcrEngine } from '../../src/desktop/ports/ocrPort';
import type { ScreenImage, ScreenPort, ScreenSize } from '../../src/desktop/ports/screenPort';
import { voteOffset, type NamedBox } from '../../src/platform/linux/gnome/offsetVote';
import { sameLook, WindowPlacer } from '../../src/platform/linux/gnome/windowPlacer';
import { PlacedTree } from '../../src/platform/linux/gnome/placedTree';
import type { AccessibilityPort, AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import { uncovered } from '../../src/desktop/grounding/windowScene';

const SCREEN = { width: 1280, height: 800 };

/** A calculator's keypad as its toolkit reports it, relative to its window: 63×34 keys. */
function keypad(): NamedBox[] {
  const names = ['7', '8', '9', '/', 'sqrt', '4', '5', '6', '*', '%', '1', '2', '3', '-', '='];
  const keys = names.map((name, i) => ({ name, bbox: { x: 32 + (i % 5) * 69, y: 244 + Math.floor(i / 5) * 40, width: 63, height: 34 } }));
  const menus = ['File', 'Edit', 'View'].map((name, i) => ({ name, bbox: { x: 26 + i * 44, y: 60, width: 40, height: 26 } }));
  return [...menus, ...keys];
}

/** The words OCR reads off the window drawn at (dx, dy): each label centred in its box, as ink. */
function drawn(elements: readonly NamedBox[], dx: number, dy: number): NamedBox[] {
  return elements.map(({ name, bbox }) => {
    const width = Math.min(bbox.width - 10, name.length * 8);
    return { name, bbox: { x: bbox.x + dx + (bbox.width - width) / 2, y: bbox.y + dy + 10, width, height: bbox.height - 20 } };
  });
}

describe('GNOME: a window placed by its labels on the screen (offsetVote)', () => {
  it('finds the offset every label agrees on, to the pixel where labels are centred', () => {
    const vote = voteOffset(keypad(), drawn(keypad(), 86, -11), SCREEN);
    assert.ok(vote);
    assert.ok(Math.abs(vote.dx - 86) <= 1 && Math.abs(vote.dy + 11) <= 1, JSON.stringify(vote));
    assert.equal(vote.votes, keypad().length);
  });

  it('other text on the screen does not move it, and a word spelled differently is not a vote', () => {
    const noise: NamedBox[] = [
      { name: '7', bbox: { x: 900, y: 500, width: 8, height: 12 } },
      { name: 'File', bbox: { x: 700, y: 30, width: 30, height: 12 } },
      { name: 'sart', bbox: { x: 400, y: 240, width: 30, height: 12 } },
    ];
    const vote = voteOffset(keypad(), [...drawn(keypad(), 300, 120), ...noise], SCREEN);
    assert.ok(vote && Math.abs(vote.dx - 300) <= 1 && Math.abs(vote.dy - 120) <= 1, JSON.stringify(vote));
  });

  it('a window drawn scaled (a thumbnail in GNOME\'s overview) is not placed, though its labels line up nearly', () => {
    const thumbnail = keypad().map(({ name, bbox }) => ({ name, bbox: { x: Math.round(bbox.x * 0.94), y: Math.round(bbox.y * 0.94), width: Math.round(bbox.width * 0.94), height: Math.round(bbox.height * 0.94) } }));
    assert.equal(voteOffset(keypad(), drawn(thumbnail, 400, 200), SCREEN), undefined);
  });

  it('two copies of the window drawn equally: no place (the tree is then left to OCR)', () => {
    const twice = [...drawn(keypad(), 86, -11), ...drawn(keypad(), 600, 300)];
    assert.equal(voteOffset(keypad(), twice, SCREEN), undefined);
  });

  it('one lone label, or labels in wide boxes only, does not pin a window down', () => {
    assert.equal(voteOffset(keypad(), drawn(keypad(), 86, -11).slice(0, 1), SCREEN), undefined);
    const wide = [{ name: 'OK', bbox: { x: 10, y: 10, width: 300, height: 120 } }, { name: 'Cancel', bbox: { x: 320, y: 10, width: 300, height: 120 } }];
    assert.equal(voteOffset(wide, drawn(wide, 50, 50).map((w) => ({ ...w, bbox: { ...w.bbox, height: 12 } })), SCREEN), undefined);
  });
});

/** A screen whose pixels are grey level `shade` everywhere inside `window` and black elsewhere. */
class PaintedScreen implements ScreenPort {
  window: BBox = { x: 86, y: 0, width: 400, height: 450 };
  /** A part drawn white (a key pressed or hovered). */
  lit: BBox | undefined;
  grabs = 0;
  size(): Promise<ScreenSize> {
    return Promise.resolve(SCREEN);
  }
  scaleFactor(): Promise<number> {
    return Promise.resolve(1);
  }
  grab(region: BBox = { x: 0, y: 0, ...SCREEN }): Promise<ScreenImage> {
    this.grabs++;
    const data = Buffer.alloc(region.width * region.height * 4);
    for (let y = 0; y < region.height; y++) {
      for (let x = 0; x < region.width; x++) {
        const sx = region.x + x;
        const sy = region.y + y;
        const inside = sx >= this.window.x && sx < this.window.x + this.window.width && sy >= this.window.y && sy < this.window.y + this.window.height;
        // Stripes make a label's place look different from its neighbourhood.
        const lit = this.lit && sx >= this.lit.x && sx < this.lit.x + this.lit.width && sy >= this.lit.y && sy < this.lit.y + this.lit.height;
        const shade = lit ? 255 : inside ? ((sx - this.window.x) % 40 < 20 ? 230 : 120) : 0;
        data.fill(shade, (y * region.width + x) * 4, (y * region.width + x) * 4 + 3);
        data[(y * region.width + x) * 4 + 3] = 255;
      }
    }
    return Promise.resolve({ width: region.width, height: region.height, data, origin: { x: region.x, y: region.y } });
  }
}

/** OCR of the painted screen: the keypad's words where the window is. */
class KeypadOcr implements OcrEngine {
  readonly name = 'keypad';
  reads = 0;
  constructor(private readonly screen: PaintedScreen) {}
  recognize(): Promise<OcrAnalysis> {
    this.reads++;
    const words = drawn(keypad(), this.screen.window.x, this.screen.window.y - 11);
    return Promise.resolve({ fullText: words.map((w) => w.name).join(' '), elements: words.map((w) => ({ text: w.name, bbox: w.bbox, confidence: 0.9, level: 'word' as const })) });
  }
  dispose(): Promise<void> {
    return Promise.resolve();
  }
}

describe('GNOME: the window placer', () => {
  it('reads the screen once, then confirms the place with small looks (one changed word is no move); a moved window is placed again', async () => {
    const screen = new PaintedScreen();
    const ocr = new KeypadOcr(screen);
    const placer = new WindowPlacer(screen, ocr);
    const first = await placer.offsetOf('galculator', keypad());
    assert.ok(first && Math.abs(first.dx - 86) <= 1 && Math.abs(first.dy + 11) <= 1, JSON.stringify(first));
    const again = await placer.offsetOf('galculator', keypad());
    assert.deepEqual(again, first);
    assert.equal(ocr.reads, 1, 'the second use is confirmed without OCR');
    assert.equal(placer.stats.confirmed, 1);
    // One word looks different (the menu title under the pointer lights up): still confirmed.
    screen.lit = { x: 86 + 26, y: -11 + 60, width: 40, height: 26 };
    assert.deepEqual(await placer.offsetOf('galculator', keypad()), first);
    assert.equal(ocr.reads, 1, 'one changed witness of three is no move');
    screen.lit = undefined;
    // The person drags the window: the witnesses' pixels are gone from the old place.
    screen.window = { x: 500, y: 200, width: 400, height: 450 };
    const moved = await placer.offsetOf('galculator', keypad());
    assert.ok(moved && Math.abs(moved.dx - 500) <= 1 && Math.abs(moved.dy - 189) <= 1, JSON.stringify(moved));
    assert.equal(ocr.reads, 2);
  });

  it('a witness word redrawn paler (its window lost the focus) or on a lit background still confirms the place; other content there, or a flat area, does not', () => {
    // A word's print: 12 x 4 cells of grey, dark where its letters' ink is, on a white background.
    const ink = [0.1, 0.6, 0.2, 0.7, 0.5, 0.0, 0.4, 0.8, 0.3, 0.6, 0.1, 0.5];
    const word = (background: number, text: number, pattern = ink): Float32Array => Float32Array.from({ length: 48 }, (_, i) => {
      const share = pattern[i % 12]! * (i < 12 || i >= 36 ? 0.4 : 1);
      return background * (1 - share) + text * share;
    });
    const focused = word(250, 40);
    assert.ok(sameLook(word(250, 40), focused));
    assert.ok(sameLook(word(250, 150), focused), 'backdrop: the same word in paler text');
    assert.ok(sameLook(word(200, 30), focused), 'hovered: a darker background under it');
    assert.ok(!sameLook(word(250, 40, [...ink].reverse()), focused), 'another word drawn there');
    assert.ok(!sameLook(new Float32Array(48).fill(120), focused), 'a flat area (the window gone)');
  });

  it('a window with no named element, or none of whose names are on the screen, is not placed', async () => {
    const screen = new PaintedScreen();
    const placer = new WindowPlacer(screen, new KeypadOcr(screen));
    assert.equal(await placer.offsetOf('blank', [{ name: '', bbox: { x: 0, y: 0, width: 10, height: 10 } }]), undefined);
    assert.equal(await placer.offsetOf('other', [{ name: 'Apply', bbox: { x: 0, y: 0, width: 60, height: 30 } }, { name: 'Close', bbox: { x: 70, y: 0, width: 60, height: 30 } }]), undefined);
  });
});

/** The inner tree of a GNOME Shell session: the shell's top bar (its stage a screen-sized "window") and galculator's keypad. */
class ShellAndKeypad implements AccessibilityPort {
  readonly name = 'stand-in';
  appActive = true;
  available(): Promise<boolean> {
    return Promise.resolve(true);
  }
  elements(): Promise<AccessibleElement[]> {
    const stage = { x: 0, y: 0, ...SCREEN };
    const shell: AccessibleElement[] = [
      { name: 'Activities', role: 'label', states: [], bbox: { x: 18, y: 7, width: 78, height: 18 }, app: 'gnome-shell', pid: 1, window: { name: '', role: 'window', active: false }, popups: [stage] },
    ];
    const app: AccessibleElement[] = keypad().map(({ name, bbox }) => ({ name, role: 'push button', states: [], bbox, app: 'galculator', pid: 2, window: { name: 'galculator', role: 'frame', active: this.appActive } }));
    return Promise.resolve([...shell, ...app]);
  }
}

describe('GNOME: the placed tree', () => {
  it('the shell\'s screen-sized stage covers no window while an application\'s window is active; with the keyboard in the shell (overview, its own dialog) it covers them all', async () => {
    const screen = new PaintedScreen();
    const inner = new ShellAndKeypad();
    const tree = new PlacedTree(inner, new WindowPlacer(screen, new KeypadOcr(screen)));
    const shown = async (): Promise<string[]> => uncovered(await tree.elements({ activeWindowOnly: false })).map((e) => e.name);
    const active = await shown();
    assert.ok(active.includes('Activities') && active.includes('sqrt') && active.includes('File'), active.join(' '));
    assert.equal(active.length, keypad().length + 1);
    inner.appActive = false;
    assert.deepEqual(await shown(), ['Activities']);
  });
});
