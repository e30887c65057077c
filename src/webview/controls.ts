// The composer and the session controls: message box (Enter sends, Shift+Enter new line), Send,
// Stop (only while running; Escape too), New conversation, the busy ring and the usage line.
import type { WebviewMessage } from '../shared/protocol';
import { byId } from './dom';
import { usageLines } from './usage';
import type { ViewState } from './viewState';

/**
 * MAX_CHAT_INPUT of src/shared/protocol.ts (the host rejects longer messages). Repeated here
 * because the webview imports the protocol for its types only: its values pull in TypeBox.
 */
export const MAX_INPUT = 20_000;

type Textarea = HTMLElementTagNameMap['vscode-textarea'];
type Button = HTMLElementTagNameMap['vscode-button'];

export class Controls {
  private readonly input = byId<Textarea>('input');
  private readonly sendButton = byId<Button>('send');
  private readonly stopButton = byId<Button>('stop');
  private readonly newButton = byId<Button>('new');
  private readonly usage = byId('usage');
  private running = false;

  constructor(private readonly post: (message: WebviewMessage) => void) {
    this.input.maxLength = MAX_INPUT;
    this.input.addEventListener('keydown', (event) => {
      // isComposing: Enter that confirms an IME composition must not send.
      if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
      event.preventDefault();
      this.send();
    });
    this.sendButton.addEventListener('click', () => this.send());
    this.stopButton.addEventListener('click', () => this.stop());
    this.newButton.addEventListener('click', () => this.post({ type: 'newConversation' }));
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.running) {
        event.preventDefault();
        this.stop();
      }
    });
  }

  update(state: ViewState): void {
    this.running = state.running;
    setDisabled(this.stopButton, !state.running);
    setDisabled(this.sendButton, state.running);
    document.body.classList.toggle('running', state.running);
    const lines = usageLines(state.usage);
    const cost = spanWith('usage-cost', lines.cost);
    cost.title = lines.costTitle;
    this.usage.replaceChildren(spanWith('usage-request', lines.request), spanWith('usage-session', lines.session), cost);
  }

  focusInput(): void {
    this.input.focus();
  }

  /** Puts a request in the message box, ready to edit or send (a welcome example). */
  fill(text: string): void {
    this.input.value = text.slice(0, MAX_INPUT);
    this.input.focus();
  }

  private send(): void {
    const text = this.input.value.trim();
    if (text === '' || this.running) return;
    this.input.value = '';
    this.post({ type: 'send', text: text.slice(0, MAX_INPUT) });
  }

  private stop(): void {
    if (this.running) this.post({ type: 'stop' });
  }
}

/** The attribute, not only the property: CSS and the browser test look at it. */
function setDisabled(button: Button, disabled: boolean): void {
  button.disabled = disabled;
  button.toggleAttribute('disabled', disabled);
}

function spanWith(className: string, text: string): HTMLSpanElement {
  const span = document.createElement('span');
  span.className = className;
  span.textContent = text;
  return span;
}
