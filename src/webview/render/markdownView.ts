// Puts rendered Markdown into an element. While a reply streams only its last block or two
// change, so only the top-level nodes that differ are replaced: the DOM work stays small and a
// selection in the earlier paragraphs survives the next chunk.
import { renderMarkdown } from './markdown';

const parser = document.createElement('template');

export function setMarkdown(container: HTMLElement, text: string): void {
  parser.innerHTML = renderMarkdown(text);
  const next = Array.from(parser.content.childNodes);
  const current = Array.from(container.childNodes);
  let same = 0;
  while (same < next.length && same < current.length && current[same]?.isEqualNode(next[same] ?? null)) same++;
  for (const stale of current.slice(same)) stale.remove();
  container.append(...next.slice(same));
  parser.innerHTML = '';
}
