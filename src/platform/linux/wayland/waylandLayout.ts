import type { LayoutSource } from './grimScreen';
import type { SwayIpc } from './swayIpc';

// How big the desktop is, in layout (input) units, and its largest output scale: what grim
// captures and what absolute pointer motion spans. Outputs change rarely; asked again after a
// few seconds so a monitor plugged in is seen.

const FRESH_MS = 5_000;

export class SwayLayout implements LayoutSource {
  private cached: { at: number; value: Promise<{ width: number; height: number; scale: number }> } | undefined;

  constructor(private readonly ipc: SwayIpc) {}

  layout(): Promise<{ width: number; height: number; scale: number }> {
    if (this.cached && performance.now() - this.cached.at < FRESH_MS) return this.cached.value;
    const value = this.ipc.outputs().then((outputs) => {
      const active = outputs.filter((o) => o.active);
      if (active.length === 0) throw new Error('sway has no active output');
      const right = Math.max(...active.map((o) => o.rect.x + o.rect.width));
      const bottom = Math.max(...active.map((o) => o.rect.y + o.rect.height));
      return { width: right, height: bottom, scale: Math.max(...active.map((o) => o.scale ?? 1)) };
    });
    this.cached = { at: performance.now(), value };
    value.catch(() => (this.cached = undefined));
    return value;
  }
}
