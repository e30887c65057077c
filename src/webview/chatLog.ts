// The scrolling list of entries. Changes are batched: however many chunks of a reply arrive, the
// changed entries are rendered once per frame, and a render that took long spaces out the next
// ones (a 20k-character reply then costs a fraction of the CPU, not every frame). Follows the
// newest entry unless the person has scrolled up.
export type EntryRenderer = (index: number, existing: HTMLElement | undefined) => HTMLElement | undefined;

/** Within this many pixels of the bottom counts as "at the bottom". */
const STICK_PX = 32;
/** After a render that took T ms, the next waits about this many times T. */
const BACKOFF = 3;
const MAX_WAIT_MS = 250;

export function isNearBottom(scrollTop: number, clientHeight: number, scrollHeight: number, slack = STICK_PX): boolean {
  return scrollHeight - (scrollTop + clientHeight) <= slack;
}

/** How long to wait before the next render, given the last one's cost and age. */
export function renderDelay(lastCostMs: number, sinceLastMs: number): number {
  return Math.min(MAX_WAIT_MS, Math.max(0, lastCostMs * BACKOFF - sinceLastMs));
}

export class ChatLog {
  /** The entries' container; its growth (also from web components rendering late) is observed. */
  private readonly list = document.createElement('div');
  private elements: Array<HTMLElement | undefined> = [];
  private readonly dirty = new Set<number>();
  private scheduled = false;
  /** Whether the view follows the newest entry: the person has not scrolled up. */
  private following = true;
  /** Where the last automatic scroll put the view, to tell its scroll event from the person's. */
  private autoScrollTop: number | undefined;
  private lastCostMs = 0;
  private lastFlushAt = 0;
  private readonly resizes: ResizeObserver;
  /** The entry to bring into view at the next render (reveal()). */
  private revealing: number | undefined;
  /** Milliseconds of the slowest render so far, for measurements. */
  slowestRenderMs = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly render: EntryRenderer,
    private readonly onRendered: () => void,
  ) {
    this.list.className = 'entries';
    root.replaceChildren(this.list);
    root.addEventListener('scroll', () => this.onScroll(), { passive: true });
    // Web components, pictures and opened sections change heights after a render.
    this.resizes = new ResizeObserver(() => {
      if (this.following) this.scrollToEnd();
    });
    this.resizes.observe(this.list);
  }

  /** Another element at the end of the log (the thinking row): when it shows or grows, the view follows it too. */
  follow(element: HTMLElement): void {
    this.resizes.observe(element);
  }

  /** Rebuilds every entry now and shows the newest (a whole new state is a new or reloaded conversation). */
  renderAll(count: number): void {
    this.dirty.clear();
    this.elements = [];
    const fragment = document.createDocumentFragment();
    for (let index = 0; index < count; index++) {
      const element = this.render(index, undefined);
      this.elements[index] = element;
      if (element) fragment.append(element);
    }
    this.list.replaceChildren(fragment);
    this.following = true;
    this.scrollToEnd();
    this.onRendered();
  }

  /** Marks an entry as changed; it is rendered with the next batch. */
  invalidate(index: number): void {
    this.dirty.add(index);
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = renderDelay(this.lastCostMs, performance.now() - this.lastFlushAt);
    const frame = (): void => void requestAnimationFrame(() => this.flush());
    if (wait > 0) setTimeout(frame, wait);
    else frame();
  }

  /** An entry that asks the person something (an approval): brought into view when rendered, even if the person scrolled up. */
  reveal(index: number): void {
    this.revealing = index;
    this.invalidate(index);
  }

  /** Renders the pending changes now. */
  flush(): void {
    this.scheduled = false;
    if (this.dirty.size === 0) return;
    const started = performance.now();
    const indexes = [...this.dirty].sort((a, b) => a - b);
    this.dirty.clear();
    for (const index of indexes) this.renderOne(index);
    const asking = this.revealing === undefined ? undefined : this.elements[this.revealing];
    this.revealing = undefined;
    if (asking) {
      asking.scrollIntoView({ block: 'nearest' });
      this.autoScrollTop = this.root.scrollTop;
      this.following = this.atBottom();
    } else if (this.following) this.scrollToEnd();
    this.lastFlushAt = performance.now();
    this.lastCostMs = this.lastFlushAt - started;
    this.slowestRenderMs = Math.max(this.slowestRenderMs, this.lastCostMs);
    this.onRendered();
  }

  private renderOne(index: number): void {
    const existing = this.elements[index];
    const element = this.render(index, existing);
    if (element === existing) return;
    this.elements[index] = element;
    if (!element) existing?.remove();
    else if (existing) existing.replaceWith(element);
    else this.list.insertBefore(element, this.nextElement(index));
  }

  /** The element of the first rendered entry after `index`, to keep the DOM in entry order. */
  private nextElement(index: number): HTMLElement | null {
    for (let i = index + 1; i < this.elements.length; i++) {
      const element = this.elements[i];
      if (element) return element;
    }
    return null;
  }

  private atBottom(): boolean {
    return isNearBottom(this.root.scrollTop, this.root.clientHeight, this.root.scrollHeight);
  }

  private onScroll(): void {
    // Our own scroll: content may have grown since, which must not count as scrolling up.
    if (this.autoScrollTop !== undefined && Math.abs(this.root.scrollTop - this.autoScrollTop) <= 1) return;
    this.autoScrollTop = undefined;
    this.following = this.atBottom();
  }

  private scrollToEnd(): void {
    this.root.scrollTop = this.root.scrollHeight;
    this.autoScrollTop = this.root.scrollTop;
  }
}
