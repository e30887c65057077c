// Markdown for assistant replies and screen analyses. What the model writes is untrusted (it may
// echo a web page), so: raw HTML is shown as text (`html: false`), only http(s) links survive,
// and Markdown images are never loaded (a remote image would leak that the chat was opened, and
// the CSP blocks them anyway): they become a link, or plain text. No DOM here: unit-tested in Node.
import markdownIt, { type MarkdownIt, type Token } from 'markdown-it';

/** True for absolute http: and https: URLs only (no javascript:, data:, file:, relative links). */
export function isSafeLink(url: string): boolean {
  const trimmed = url.trim();
  if (!/^https?:\/\//i.test(trimmed)) return false;
  try {
    const protocol = new URL(trimmed).protocol;
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

let renderer: MarkdownIt | undefined;

/** The HTML for `text`; safe to assign to innerHTML (see the file comment). */
export function renderMarkdown(text: string): string {
  renderer ??= createRenderer();
  return renderer.render(text);
}

function createRenderer(): MarkdownIt {
  const md = markdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  const defaultValidate = md.validateLink.bind(md);
  // A link or image whose URL fails here is not parsed at all: its source stays as text.
  md.validateLink = (url: string) => defaultValidate(url) && isSafeLink(url);
  // Our own check after parsing (and after linkify), should a rule ever let another URL through.
  md.core.ruler.push('gai_safe_links', (state) => {
    for (const block of state.tokens) if (block.children) secureLinks(block.children);
  });
  md.renderer.rules.image = (tokens, index, options, env, self) => {
    const token = tokens[index];
    if (!token) return '';
    const src = String(token.attrGet('src') ?? '');
    const alt = self.renderInlineAsText(token.children ?? [], options, env) || src;
    const label = md.utils.escapeHtml(`Image: ${alt}`);
    if (!isSafeLink(src)) return `<span class="md-image">${label}</span>`;
    return `<a class="md-image" href="${md.utils.escapeHtml(src)}" title="Image not loaded; opens in the browser" rel="noopener noreferrer">${label}</a>`;
  };
  return md;
}

/** Unsafe links lose their href and become spans; safe ones get rel=noopener. */
function secureLinks(tokens: Token[]): void {
  let unsafeOpen = false;
  for (const token of tokens) {
    if (token.type === 'link_open') {
      const href = String(token.attrGet('href') ?? '');
      unsafeOpen = !isSafeLink(href);
      if (unsafeOpen) {
        token.tag = 'span';
        token.attrs = null;
      } else {
        token.attrSet('rel', 'noopener noreferrer');
      }
    } else if (token.type === 'link_close') {
      // Markdown links cannot nest, so a close always belongs to the latest open.
      if (unsafeOpen) token.tag = 'span';
      unsafeOpen = false;
    }
  }
}

let inlineRenderer: MarkdownIt | undefined;

/**
 * One line of Markdown with no links at all (an approval's sentence): emphasis and code only,
 * so a URL read from the screen is shown as text, never as something to click.
 */
export function renderInlineMarkdown(text: string): string {
  inlineRenderer ??= markdownIt({ html: false, linkify: false, typographer: false, breaks: false }).disable(['link', 'image', 'autolink']);
  return inlineRenderer.renderInline(text);
}
