// The empty chat: what GAI does in two lines, three requests that work on this machine (a click
// puts one in the message box, to edit before sending), the setup state (provider, model, where the key comes from) with Set API Key,
// Choose Model and Check Setup, and the self-check's answer once it ran. Hidden once the
// conversation has entries. Buttons carry their message (data-post, see render/errorView.ts).
import type { SetupCheckView, WebviewMessage, WelcomeView } from '../shared/protocol';
import { codicon, el } from './dom';

const PROVIDERS: Record<string, string> = { anthropic: 'Anthropic', openai: 'OpenAI', google: 'Google Gemini', ollama: 'Ollama', 'vscode-lm': 'VS Code (Copilot\'s models)' };

export class WelcomePanel {
  readonly element = el('section', 'welcome');
  private view?: WelcomeView;
  private check?: SetupCheckView;

  /** `fill`: puts an example in the message box (the person edits or sends it). */
  constructor(private readonly fill: (text: string) => void) {
    this.element.setAttribute('aria-label', 'Welcome to GAI');
    this.element.hidden = true;
  }

  setWelcome(view: WelcomeView): void {
    this.view = view;
    this.render();
  }

  setCheck(check: SetupCheckView): void {
    this.check = check;
    this.render();
  }

  /** Shown only while the conversation is empty (and once the host said the setup state). */
  showFor(entryCount: number): void {
    this.element.hidden = entryCount > 0 || this.view === undefined;
  }

  private render(): void {
    const view = this.view;
    if (!view) return;
    const intro = el('div', 'welcome-intro');
    intro.append(
      el('h2', 'welcome-title', 'GAI works your desktop for you'),
      el('p', 'welcome-line', 'It reads the screen (screenshots, OCR, the accessibility tree) and clicks and types in your applications.'),
      el('p', 'welcome-line', 'Every action is shown first and waits for your approval; Stop ends it at once.'),
    );
    const examples = el('div', 'welcome-examples');
    examples.append(el('h3', '', 'Try'));
    for (const example of view.examples) {
      const button = el('button', 'welcome-example', example);
      button.type = 'button';
      button.title = 'Put it in the message box to edit or send';
      button.addEventListener('click', () => this.fill(example));
      examples.append(button);
    }
    this.element.replaceChildren(intro, examples, this.setupSection(view));
    if (this.check) this.element.append(checkList(this.check));
  }

  private setupSection(view: WelcomeView): HTMLElement {
    const section = el('div', 'welcome-setup');
    section.append(el('h3', '', 'Setup'));
    const rows = el('dl', 'welcome-state');
    const row = (name: string, value: string, className = ''): void => {
      rows.append(el('dt', '', name), el('dd', className, value));
    };
    row('Provider', PROVIDERS[view.provider] ?? view.provider, 'welcome-provider');
    row('Model', view.model, 'welcome-model');
    row('API key', view.keySource === 'secretStorage' ? 'set (SecretStorage)' : view.keySource === 'environment' ? 'from the environment' : 'not set', `welcome-key ${view.keySource ? 'ok' : 'missing'}`);
    section.append(rows);
    if (view.keyNote) section.append(el('p', 'welcome-key-note', view.keyNote));
    const buttons = el('div', 'welcome-buttons');
    const button = (label: string, icon: string, action: 'setApiKey' | 'chooseModel' | 'checkSetup' | 'copyKeyLine', secondary: boolean): void => {
      const b = el('vscode-button', `welcome-${action}`, label);
      b.setAttribute('icon', icon);
      if (secondary) b.setAttribute('secondary', '');
      b.dataset.post = JSON.stringify({ type: 'setup', action } satisfies WebviewMessage);
      buttons.append(b);
    };
    // The missing step first and primary.
    button('Set API Key', 'key', 'setApiKey', view.keySource !== undefined);
    button('Choose Model', 'settings', 'chooseModel', true);
    button('Check Setup', 'checklist', 'checkSetup', true);
    if (view.keepInEnvironment) button(`Copy the ${view.keepInEnvironment} Line`, 'copy', 'copyKeyLine', true);
    section.append(buttons);
    return section;
  }
}

function checkList(check: SetupCheckView): HTMLElement {
  const list = el('ul', 'welcome-check');
  list.setAttribute('aria-label', 'Setup check');
  list.setAttribute('aria-busy', String(check.running));
  for (const item of check.items) {
    const li = el('li', item.ok ? 'ok' : 'failed');
    li.append(codicon(item.ok ? 'pass' : 'error'), el('strong', '', item.name), el('span', 'welcome-check-detail', item.detail));
    list.append(li);
  }
  if (check.running) {
    const li = el('li', 'running');
    li.append(codicon('loading', 'codicon-modifier-spin'), el('span', '', 'Checking…'));
    list.append(li);
  }
  return list;
}
