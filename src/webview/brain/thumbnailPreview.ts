// The selected screen's picture at the top of the side panel. The graph leaves pictures out so
// it stays small: the view asks the host for one when a screen that has one is selected, and
// shows the answer only if that screen is still the selected one. Sized by CSS (strict CSP).
import type { BrainNodeView } from '../../shared/brainProtocol';
import { el } from '../dom';

// The host sends only these; anything else (a remote URL, another scheme) is not shown.
const DATA_IMAGE = /^data:image\/(?:jpeg|png|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

export class ThumbnailPreview {
  readonly element: HTMLElement;
  private readonly caption: HTMLElement;
  /** Made on the first answer, so a brain without pictures has no <img> at all. */
  private image?: HTMLImageElement;
  private wanted?: { key: string; label: string };

  constructor(private readonly request: (key: string) => void) {
    this.element = el('figure', 'screen-preview');
    this.element.hidden = true;
    this.caption = el('figcaption', 'screen-preview-caption');
  }

  /** The selected screen, or undefined (nothing or a path selected). A redraw does not ask again. */
  show(node: BrainNodeView | undefined): void {
    if (!node?.hasThumbnail) {
      this.wanted = undefined;
      this.element.hidden = true;
      return;
    }
    const label = node.label || node.shortLabel;
    if (this.wanted?.key === node.key) {
      this.wanted.label = label;
      this.name(label);
      return;
    }
    this.wanted = { key: node.key, label };
    // The previous screen's picture must not stand for this one while the answer is on its way.
    this.element.hidden = true;
    this.request(node.key);
  }

  /** The host's answer to a request. */
  answer(key: string, src: string | null): void {
    if (this.wanted?.key !== key) return;
    if (src === null || !DATA_IMAGE.test(src)) {
      this.element.hidden = true;
      return;
    }
    this.image ??= el('img', 'screen-thumbnail');
    this.image.src = src;
    this.name(this.wanted.label);
    this.element.replaceChildren(this.image, this.caption);
    this.element.hidden = false;
  }

  private name(label: string): void {
    if (this.image) this.image.alt = label;
    this.caption.textContent = label;
  }
}
