// The chat header's list of what is allowed for this conversation: tools ("Allow for this
// conversation" on an approval) and apps ("Allow in <app> for this conversation"), each with a
// button that takes the grant back. Hidden while the list is empty.
import type { WebviewMessage } from '../shared/protocol';
import { codicon, el } from './dom';

interface Grant {
  label: string;
  title: string;
  revoke: WebviewMessage;
}

export class GrantsBar {
  readonly element = el('div', 'grants');

  constructor(private readonly post: (message: WebviewMessage) => void) {
    this.element.setAttribute('role', 'region');
    this.element.setAttribute('aria-label', 'Allowed for this conversation');
    this.element.hidden = true;
  }

  update(tools: unknown, apps: unknown): void {
    const grants: Grant[] = [
      ...strings(tools).map((name): Grant => ({ label: name, title: `Ask again before ${name} runs`, revoke: { type: 'revokeTool', name } })),
      ...appList(apps).map(({ key, name }): Grant => ({ label: `in ${name}`, title: `Ask again before acting in ${name}`, revoke: { type: 'revokeApp', key } })),
    ];
    this.element.replaceChildren();
    this.element.hidden = grants.length === 0;
    if (grants.length === 0) return;
    this.element.append(codicon('shield'), el('span', 'grants-label', 'Allowed for this conversation:'));
    for (const grant of grants) {
      const chip = el('span', 'grant');
      chip.append(el('span', 'grant-name', grant.label));
      const revoke = el('button', 'grant-revoke');
      revoke.type = 'button';
      revoke.title = grant.title;
      revoke.setAttribute('aria-label', `Revoke ${grant.label}`);
      revoke.append(codicon('close'));
      revoke.addEventListener('click', () => {
        revoke.disabled = true;
        this.post(grant.revoke);
      });
      chip.append(revoke);
      this.element.append(chip);
    }
  }
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function appList(value: unknown): Array<{ key: string; name: string }> {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is { key: string; name: string } => typeof item === 'object' && item !== null && typeof (item as { key?: unknown }).key === 'string' && typeof (item as { name?: unknown }).name === 'string');
}
