import { offsetBox, union } from '../../../common/geometry';
import type { AccessibilityPort, AccessibilityQueryOptions, AccessibleElement, ElementAction, FocusedElement } from '../../../desktop/ports/accessibilityPort';
import type { WindowPlacer } from './windowPlacer';

// The AT-SPI tree of a GNOME Wayland session, moved onto the screen: each window's boxes come
// relative to that window, and the placer says where the window is. A window that cannot be
// placed is left out (OCR reads it) rather than served at a guessed place. An open menu is its
// own surface, but GTK reports its items relative to the window that opened it.

const POPUP_ROLES = new Set(['menu', 'popup menu', 'window', 'tool tip']);

/**
 * The compositor's own interface (GNOME Shell's top bar, overview, notifications): drawn where it
 * says, in screen pixels. Never placed, and not one of the windows a person moves.
 */
export const SHELL_APPS = new Set(['gnome-shell']);

export class PlacedTree implements AccessibilityPort {
  readonly name: string;

  constructor(
    private readonly inner: AccessibilityPort,
    private readonly placer: WindowPlacer,
  ) {
    this.name = `${inner.name} (placed by the screen's text)`;
  }

  available(): Promise<boolean> {
    return this.inner.available();
  }

  async elements(options: AccessibilityQueryOptions & { fresh?: boolean } = {}): Promise<AccessibleElement[]> {
    return this.place(await this.inner.elements(options), options.signal);
  }

  async textBoxes(text: string, options: AccessibilityQueryOptions = {}): Promise<AccessibleElement[]> {
    if (!this.inner.textBoxes) return [];
    const boxes = await this.inner.textBoxes(text, options);
    if (boxes.length === 0) return boxes;
    // A text range is placed with its window, which the window's own elements place.
    const offsets = await this.offsets(await this.inner.elements(options), options.signal);
    return boxes.flatMap((b) => {
      const offset = offsets.get(windowKey(b));
      return offset ? [moved(b, offset)] : [];
    });
  }

  focusedElement(signal?: AbortSignal): Promise<FocusedElement | undefined> {
    return this.inner.focusedElement ? this.inner.focusedElement(signal) : Promise.resolve(undefined);
  }

  perform(ref: string, action: ElementAction, signal?: AbortSignal): Promise<string> {
    if (!this.inner.perform) return Promise.reject(new Error(`${this.inner.name} has no accessibility actions`));
    return this.inner.perform(ref, action, signal);
  }

  insertText(text: string, signal?: AbortSignal): Promise<void> {
    if (!this.inner.insertText) return Promise.reject(new Error(`${this.inner.name} cannot put text into a field`));
    return this.inner.insertText(text, signal);
  }

  treeDigest(signal?: AbortSignal): Promise<string | undefined> {
    return this.inner.treeDigest ? this.inner.treeDigest(signal) : Promise.resolve(undefined);
  }

  /** Each window's offset, by windowKey; popups take the offset of their app's placed window. */
  async offsets(elements: readonly AccessibleElement[], signal?: AbortSignal): Promise<Map<string, { dx: number; dy: number }>> {
    const groups = new Map<string, AccessibleElement[]>();
    for (const element of elements) {
      const key = windowKey(element);
      const group = groups.get(key);
      if (group) group.push(element);
      else groups.set(key, [element]);
    }
    const out = new Map<string, { dx: number; dy: number }>();
    const popups: string[] = [];
    for (const [key, group] of groups) {
      if (SHELL_APPS.has(group[0]!.app ?? '')) {
        out.set(key, { dx: 0, dy: 0 });
        continue;
      }
      if (POPUP_ROLES.has(group[0]!.window?.role ?? '')) {
        popups.push(key);
        continue;
      }
      const offset = await this.placer.offsetOf(key, group, signal);
      if (offset) out.set(key, offset);
      this.placer.noteContent(key, union(group.map((e) => e.bbox)));
    }
    for (const key of popups) {
      const pid = groups.get(key)![0]!.pid;
      const owner = [...groups.entries()].find(([k, g]) => out.has(k) && g[0]!.pid === pid && g[0]!.window?.active);
      const offset = owner ? out.get(owner[0]) : await this.placer.offsetOf(key, groups.get(key)!, signal);
      if (offset) out.set(key, offset);
    }
    return out;
  }

  private async place(elements: AccessibleElement[], signal?: AbortSignal): Promise<AccessibleElement[]> {
    const offsets = await this.offsets(elements, signal);
    // While no application's window is active the shell has the keyboard (its overview, a modal
    // dialog of its own: a command to run, a password): it lies over every window then.
    const modal = !elements.some((e) => !SHELL_APPS.has(e.app ?? '') && e.window?.active);
    return elements
      .flatMap((e) => {
        const offset = offsets.get(windowKey(e));
        return offset ? [SHELL_APPS.has(e.app ?? '') && !modal ? ownLayer(e) : moved(e, offset)] : [];
      })
      .sort((a, b) => a.bbox.y - b.bbox.y || a.bbox.x - b.bbox.x);
  }
}

/** One window of one application: what the placer keeps a place for. */
export function windowKey(e: Pick<AccessibleElement, 'pid' | 'app' | 'window'>): string {
  return `${e.pid ?? e.app ?? ''}\u0000${e.window?.role ?? ''}\u0000${e.window?.name ?? ''}`;
}

/**
 * GNOME Shell's elements all lie in its stage, a "window" the size of the screen that the
 * toolkit-neutral rules would take for a popup over every application window. While an
 * application's window is active, what the shell draws over the windows is each of its elements
 * (the top bar's items, an open menu's entries): each covers where it is drawn. (In the overview
 * the windows' thumbnails also fail their glance, windowPlacer.ts, and their trees are left out.)
 */
function ownLayer(e: AccessibleElement): AccessibleElement {
  return e.popups ? { ...e, popups: [e.bbox] } : e;
}

function moved(e: AccessibleElement, offset: { dx: number; dy: number }): AccessibleElement {
  return { ...e, bbox: offsetBox(e.bbox, offset.dx, offset.dy), ...(e.popups ? { popups: e.popups.map((p) => offsetBox(p, offset.dx, offset.dy)) } : {}) };
}
