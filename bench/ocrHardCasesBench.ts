// Rows of the ocr bench for the hard-case page (test/desktop/fixtures/hardCasesPage.html in
// chromium): label recall by category and misplaced labels for one plain sparse pass, the
// tesseract CLI and the layered engine, and the full-screen read time of each.
import { spawnSync } from 'node:child_process';
import type { OcrAnalysis } from '../src/desktop/ocr/ocrTypes';
import { NativeTesseractOcr } from '../src/platform/ocr/nativeTesseractOcr';
import { NutScreen } from '../src/platform/nut/nutScreen';
import type { TesseractJsOcr } from '../src/platform/ocr/tesseractJsOcr';
import { LayeredOcr } from '../src/desktop/ocr/layeredOcr';
import type { OcrEngine } from '../src/desktop/ports/ocrPort';
import type { ScreenImage } from '../src/desktop/ports/screenPort';
import { locateText } from '../src/desktop/grounding/textLocator';
import { openHardCasesPage, type PageLabel } from '../test/desktop/support/hardCasesPage';
import { median, type BenchRow } from './benchReport';

const RUNS = 5;

export async function hardCaseRows(env: NodeJS.ProcessEnv, engine: TesseractJsOcr): Promise<BenchRow[]> {
  if (spawnSync('chromium', ['--version'], { stdio: 'ignore' }).status !== 0) return [{ name: 'ocr: hard-case page', value: NaN, unit: '%', note: 'chromium not installed' }];
  const page = await openHardCasesPage(env);
  try {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const screen = await new NutScreen().grab();
    const rows: BenchRow[] = [];
    const readers: Array<[string, OcrEngine, string | undefined]> = [
      ['tesseract.js plain sparse', engine, undefined],
      ['layered', new LayeredOcr(engine, { cacheSize: 0 }), '>= 98'],
    ];
    if (spawnSync('tesseract', ['--version'], { stdio: 'ignore' }).status === 0) readers.push(['tesseract CLI', new NativeTesseractOcr(), undefined]);
    for (const [name, reader, goal] of readers) {
      const { result, ms } = await timedReads(reader, screen);
      rows.push({ name: `ocr: hard-case page, full screen, ${name}`, value: ms, unit: 'ms' });
      rows.push(recallRow(`ocr: hard-case page label recall, ${name}`, page.labels, result, goal));
    }
    return rows;
  } finally {
    await page.close();
  }
}

async function timedReads(reader: OcrEngine, screen: ScreenImage): Promise<{ result: OcrAnalysis; ms: number }> {
  let result = await reader.recognize(screen);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    result = await reader.recognize(screen);
    times.push(performance.now() - started);
  }
  return { result, ms: median(times) };
}

/** Share of labels located (as the click tool locates) inside their own element, by category; misplaced ones named. */
function recallRow(name: string, labels: PageLabel[], result: OcrAnalysis, goal?: string): BenchRow {
  const byCategory = new Map<string, [number, number]>();
  const wrong: string[] = [];
  let hits = 0;
  for (const label of labels) {
    const entry = byCategory.get(label.category) ?? [0, 0];
    entry[1]++;
    byCategory.set(label.category, entry);
    const located = locateText(result, label.text);
    if (located.status !== 'found') continue;
    const { x, y } = located.match.point;
    const b = label.bbox;
    if (x >= b.x - 1 && x <= b.x + b.width + 1 && y >= b.y - 1 && y <= b.y + b.height + 1) {
      hits++;
      entry[0]++;
    } else {
      wrong.push(label.text);
    }
  }
  const value = (100 * hits) / labels.length;
  const categories = [...byCategory].map(([category, [hit, all]]) => `${category} ${hit}/${all}`).join(', ');
  return {
    name,
    value,
    unit: '%',
    ...(goal ? { goal, met: value >= 98 } : {}),
    note: `${hits}/${labels.length}; ${categories}; misplaced ${wrong.length}${wrong.length ? ` (${wrong.join(' ')})` : ''}`,
  };
}
