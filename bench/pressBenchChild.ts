// Runs inside the bench's private display (started by pressBench.ts): the same keys of a GTK 3
// calculator (galculator) and a Qt 5 one (speedcrunch's keypad) clicked by text with the pointer
// and pressed through their accessibility actions (gai.input "accessibility"), taking turns, through
// the runtime as a model's call goes. The press includes the dry run that lets its approval say
// the pointer stays, and the wait until the window shows the effect; the pointer click waits for nothing.
import { loadavg } from 'node:os';
import { createPlatformDesktop } from '../src/platform/platformDesktop';
import { createDesktopServices } from '../src/desktop/desktopServices';
import { createDesktopTools } from '../src/tools/desktop/desktopTools';
import type { InputChoice } from '../src/tools/inputChoice';
import { ToolRegistry } from '../src/tools/toolRegistry';
import { ToolRuntime } from '../src/runtime/toolRuntime';
import { AtspiApp, type AtspiAppKind } from '../test/desktop/support/realApps/atspiApps';
import { run } from '../test/desktop/support/realApps/appWindow';
import { median, percentile, type BenchRow } from './benchReport';

const RUNS = 16;
/** A key that clears after three that add, so every click changes the display. */
const KEYS = ['7', '8', '9', 'C'];
const PARKED = { x: 3, y: 1077 };
const PLACEMENT = { galculator: { x: 960, y: 560, width: 480, height: 480 }, speedcrunch: { x: 1296, y: 545, width: 622, height: 510 } } as const;

async function main(): Promise<void> {
  const load = loadavg()[0]!;
  const services = createDesktopServices(createPlatformDesktop({}));
  const runtimeFor = (input: InputChoice): ToolRuntime => {
    const registry = new ToolRegistry();
    for (const tool of createDesktopTools(services, { input })) registry.register(tool);
    return new ToolRuntime(registry, { autoApprove: ['read', 'action', 'system'] });
  };
  const runtimes = { pointer: runtimeFor('pointer'), accessibility: runtimeFor('accessibility') };
  const rows: BenchRow[] = [{ name: 'press: machine load (1 min average at start)', value: load, unit: '' }];
  let n = 0;
  const park = (): Promise<string> => run('xdotool', ['mousemove', String(PARKED.x), String(PARKED.y)], process.env);
  const click = async (way: InputChoice, text: string): Promise<{ ms: number; via?: string; moved: boolean }> => {
    await park();
    const before = await services.desktop.input.position();
    const t = performance.now();
    const { result } = await runtimes[way].executeWithRecovery({ id: `p${++n}`, name: 'click', input: { text } }, new AbortController().signal);
    const ms = performance.now() - t;
    if (!result.success) throw new Error(`${way} click ${text}: ${result.error}`);
    const after = await services.desktop.input.position();
    return { ms, via: (result.data as { via?: string }).via, moved: after.x !== before.x || after.y !== before.y };
  };
  try {
    for (const kind of ['galculator', 'speedcrunch'] as const satisfies readonly AtspiAppKind[]) {
      const app = await AtspiApp.start(kind, process.env, PLACEMENT[kind]);
      try {
        await app.activate();
        // Warm: the tree, OCR workers and the helper's first walk are not what is compared.
        for (const key of KEYS) await click('pointer', key);
        for (const key of KEYS) await click('accessibility', key);
        const times: Record<InputChoice, number[]> = { pointer: [], accessibility: [] };
        let pressed = 0;
        let moved = 0;
        for (let i = 0; i < RUNS; i++) {
          const key = KEYS[i % KEYS.length]!;
          // Taking turns, the order swapped every round: neither way always follows the other.
          const order: InputChoice[] = i % 2 ? ['pointer', 'accessibility'] : ['accessibility', 'pointer'];
          for (const way of order) {
            const done = await click(way, key);
            times[way].push(done.ms);
            if (way === 'accessibility') {
              if (done.via === 'accessibility') pressed++;
              if (done.moved) moved++;
            }
          }
        }
        const label = kind === 'galculator' ? 'galculator (GTK 3)' : 'speedcrunch (Qt 5)';
        rows.push(
          { name: `${label}: click by text with the pointer`, value: median(times.pointer), unit: 'ms', note: `p95 ${percentile(times.pointer, 95).toFixed(0)} ms, ${RUNS} clicks` },
          {
            name: `${label}: the same keys through accessibility, effect checked`,
            value: median(times.accessibility),
            unit: 'ms',
            note: `p95 ${percentile(times.accessibility, 95).toFixed(0)} ms; ${pressed}/${RUNS} pressed through the tree, the pointer moved in ${moved}`,
          },
        );
      } finally {
        await app.stop();
      }
    }
    process.stdout.write(`BENCH_ROWS ${JSON.stringify(rows)}\n`);
  } finally {
    const { desktop } = services;
    await (desktop.dispose ? desktop.dispose() : desktop.ocr.dispose());
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
