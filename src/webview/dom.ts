// Small DOM helpers. Text always goes in as text (textContent), never as HTML; the only HTML the
// view inserts is markdown-it's output (see render/markdown.ts).

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

/** A codicon glyph; decorative, so hidden from screen readers (the text next to it says it). */
export function codicon(name: string, extraClass = ''): HTMLSpanElement {
  const span = el('span', `codicon codicon-${name}${extraClass ? ` ${extraClass}` : ''}`);
  span.setAttribute('aria-hidden', 'true');
  return span;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the chat page`);
  return element as T;
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
