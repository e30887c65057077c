import type { ScreenImage } from '../../desktop/ports/screenPort';

// A worker's first reading of text is 60-170 ms slower than the next ones (the recognizer sizes
// its buffers on the first lines it sees), so a warm-up that only starts the workers leaves the
// first click by text that needs OCR to pay it. Reading this once on each worker pays it ahead:
// two rows of letter-like strokes, about as wide as a line of UI text read at 2x.

const WIDTH = 300;
const HEIGHT = 40;

export function primerImage(): ScreenImage {
  const data = Buffer.alloc(WIDTH * HEIGHT * 4, 255);
  const ink = (x: number, y: number, width: number, height: number): void => {
    for (let row = y; row < y + height; row++) data.fill(0, (row * WIDTH + x) * 4, (row * WIDTH + x + width) * 4);
  };
  // Upper row: stems, bars and bowls in varying combinations ("F", "E", "H"-like shapes).
  for (let k = 0; k < 24; k++) {
    const x = 6 + k * 12;
    ink(x, 4, 2, 12);
    ink(x, 4, 7, 2);
    if (k % 2) ink(x + 5, 4, 2, 12);
    if (k % 3) ink(x, 14, 7, 2);
  }
  // Lower row: narrower shapes, another spacing.
  for (let k = 0; k < 20; k++) {
    const x = 6 + k * 14;
    ink(x, 24, 2, 12);
    ink(x, 29, 8, 2);
  }
  return { width: WIDTH, height: HEIGHT, data, origin: { x: 0, y: 0 } };
}
