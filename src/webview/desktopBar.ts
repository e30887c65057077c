// The chat header's line about where GAI works: "your screen", or GAI's own desktop with a Watch
// button that opens the live view.
import type { HostMessage, WebviewMessage } from '../shared/protocol';
import { codicon, el } from './dom';

export class DesktopBar {
  readonly element = el('div', 'desktop-bar');

  constructor(private readonly post: (message: WebviewMessage) => void) {
    this.element.setAttribute('role', 'status');
    this.element.hidden = true;
  }

  update(message: Extract<HostMessage, { type: 'desktop' }>): void {
    this.element.replaceChildren();
    this.element.hidden = false;
    this.element.classList.toggle('own', message.where === 'own');
    this.element.append(codicon(message.where === 'own' ? 'vm' : 'device-desktop'), el('span', 'desktop-label', `On ${message.label}`));
    if (message.where !== 'own') return;
    const watch = el('button', 'desktop-watch');
    watch.type = 'button';
    watch.title = "Show GAI's desktop live in an editor tab; take over there when you need to";
    watch.append(codicon('eye'), el('span', '', 'Watch'));
    watch.addEventListener('click', () => this.post({ type: 'showLiveView' }));
    this.element.append(watch);
  }
}
