// The chat header's list of tools allowed for this conversation ("Allow for this conversation"
// on an approval), each with a button that takes the grant back. Hidden while the list is empty.
import type { WebviewMessage } from '../shared/protocol';
import { codicon, el } from './dom';

export class GrantsBar {
  readonly element = el('div', 'grants');

  constructor(private readonly post: (message: WebviewMessage) => void) {
    this.element.setAttribute('role', 'region');
    this.element.setAttribute('aria-label', 'Tools allowed for this conversation');
    this.element.hidden = true;
  }

  update(tools: unknown): void {
    const names = Array.isArray(tools) ? tools.filter((tool): tool is string => typeof tool === 'string') : [];
    this.element.replaceChildren();
    this.element.hidden = names.length === 0;
    if (names.length === 0) return;
    this.element.append(codicon('shield'), el('span', 'grants-label', 'Allowed for this conversation:'));
    for (const name of names) {
      const chip = el('span', 'grant');
      chip.append(el('span', 'grant-name', name));
      const revoke = el('button', 'grant-revoke');
      revoke.type = 'button';
      revoke.title = `Ask again before ${name} runs`;
      revoke.setAttribute('aria-label', `Revoke ${name}`);
      revoke.append(codicon('close'));
      revoke.addEventListener('click', () => {
        revoke.disabled = true;
        this.post({ type: 'revokeTool', name });
      });
      chip.append(revoke);
      this.element.append(chip);
    }
  }
}
