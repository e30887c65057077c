// The crop pictures of routine steps (where the person clicked), loaded lazily: the routines
// message names them by token only, so it stays small; a step row that scrolls into view asks
// the host for its pictures (batched, like the screens' thumbnails one by one), and each answer
// is kept by token, so a redraw shows it again without asking. Sized by CSS (strict CSP).

// The host sends only these; anything else (a remote URL, another scheme) is not shown.
const DATA_IMAGE = /^data:image\/(?:jpeg|png|webp);base64,[A-Za-z0-9+/]+={0,2}$/;
/** As the protocol's bound on one `routineCrops` request. */
const BATCH = 50;

export class RoutineCrops {
  private readonly known = new Map<string, string | null>();
  private readonly pending = new Set<string>();
  private readonly queued = new Set<string>();
  private readonly observer: IntersectionObserver;

  constructor(private readonly request: (tokens: string[]) => void) {
    // 300 px ahead: the pictures are there by the time the rows are read.
    this.observer = new IntersectionObserver((entries) => this.seen(entries), { rootMargin: '300px 0px' });
  }

  /** An <img> for the token, shown once its picture is known; `row` asks for it when it comes into view. */
  image(token: string, alt: string, className: string, row: HTMLElement): HTMLImageElement {
    const image = document.createElement('img');
    image.className = className;
    image.alt = alt;
    image.dataset.crop = token;
    image.hidden = true;
    const src = this.known.get(token);
    if (src) this.fill(image, src);
    else if (src === undefined) {
      row.dataset.crops = [row.dataset.crops, token].filter(Boolean).join(' ');
      this.observer.observe(row);
    }
    return image;
  }

  /** Before a redraw: rows about to be replaced are no longer watched; answers for gone pictures are dropped. */
  reset(tokens: ReadonlySet<string>): void {
    this.observer.disconnect();
    for (const token of [...this.known.keys()]) if (!tokens.has(token)) this.known.delete(token);
  }

  /** The host's answer. */
  answer(crops: ReadonlyArray<{ crop: string; src: string | null }>): void {
    for (const { crop, src } of crops) {
      this.pending.delete(crop);
      const shown = src !== null && DATA_IMAGE.test(src) ? src : null;
      this.known.set(crop, shown);
      if (!shown) continue;
      for (const image of Array.from(document.querySelectorAll<HTMLImageElement>(`img[data-crop="${CSS.escape(crop)}"]`))) this.fill(image, shown);
    }
  }

  private seen(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const row = entry.target as HTMLElement;
      this.observer.unobserve(row);
      for (const token of (row.dataset.crops ?? '').split(' ')) {
        if (token && !this.known.has(token) && !this.pending.has(token)) this.queued.add(token);
      }
    }
    const tokens = [...this.queued];
    this.queued.clear();
    for (let i = 0; i < tokens.length; i += BATCH) {
      const batch = tokens.slice(i, i + BATCH);
      for (const token of batch) this.pending.add(token);
      this.request(batch);
    }
  }

  private fill(image: HTMLImageElement, src: string): void {
    image.src = src;
    image.hidden = false;
  }
}
