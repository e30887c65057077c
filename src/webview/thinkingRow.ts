// The "Thinking… 3 s" row under the conversation while the model call in flight has not
// answered yet. The host says since when (so a view shown again counts on from there); the
// seconds tick here, with a timer (no inline script: CSP-safe).
export class ThinkingRow {
  readonly element = document.createElement('div');
  private readonly seconds = document.createElement('span');
  private timer: ReturnType<typeof setInterval> | undefined;
  private since: number | undefined;

  constructor(parent: HTMLElement) {
    this.element.className = 'thinking';
    this.element.setAttribute('role', 'status');
    this.element.hidden = true;
    const icon = document.createElement('span');
    icon.className = 'codicon codicon-loading codicon-modifier-spin';
    icon.setAttribute('aria-hidden', 'true');
    const label = document.createElement('span');
    label.textContent = 'Thinking…';
    this.seconds.className = 'thinking-seconds';
    this.element.append(icon, label, this.seconds);
    parent.append(this.element);
  }

  /** Shown while `since` is set and a request runs. */
  update(since: number | undefined, running: boolean): void {
    const next = running ? since : undefined;
    if (next === this.since) return;
    this.since = next;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.element.hidden = next === undefined;
    if (next === undefined) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), 1_000);
  }

  private tick(): void {
    if (this.since === undefined) return;
    this.seconds.textContent = `${Math.max(0, Math.floor((Date.now() - this.since) / 1_000))} s`;
  }
}
