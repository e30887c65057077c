// The chat's Markdown renderer: formatting works, and nothing the model writes can become
// markup, script, a non-http(s) link or a loaded image.
import { strict as assert } from 'node:assert';
import { isSafeLink, renderMarkdown } from '../../src/webview/render/markdown';

describe('webview markdown renderer', () => {
  it('renders bold, inline code, lists, fenced code and tables', () => {
    const html = renderMarkdown('**bold** and `x < y`\n\n- one\n- two\n\n1. first\n\n```ts\nconst a = 1 < 2;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    assert.match(html, /<strong>bold<\/strong>/);
    assert.match(html, /<code>x &lt; y<\/code>/);
    assert.match(html, /<ul>\s*<li>one<\/li>\s*<li>two<\/li>\s*<\/ul>/);
    assert.match(html, /<ol>\s*<li>first<\/li>\s*<\/ol>/);
    assert.match(html, /<pre><code class="language-ts">const a = 1 &lt; 2;\n<\/code><\/pre>/);
    assert.match(html, /<table>[\s\S]*<td>1<\/td>[\s\S]*<\/table>/);
  });

  it('shows raw HTML as text: <script>, <img onerror>, event handlers, iframes', () => {
    const payloads = [
      '<script>window.pwned = 1</script>',
      '<img src=x onerror="window.pwned = 2">',
      '<a href="https://example.com" onclick="alert(1)">x</a>',
      '<iframe src="https://example.com"></iframe>',
      'inline <b onmouseover=alert(1)>bold</b> text',
      '<div>\n\n*md inside*\n\n</div>',
    ];
    for (const payload of payloads) {
      const html = renderMarkdown(payload);
      assert.doesNotMatch(html, /<(script|img|iframe|b|div)\b/i, `${payload} -> ${html}`);
      assert.doesNotMatch(html, /<a [^>]*on\w+=/i, `${payload} -> ${html}`);
    }
    assert.equal(renderMarkdown('<script>alert(1)</script>'), '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n');
    assert.equal(renderMarkdown('<img src=x onerror=alert(1)>'), '<p>&lt;img src=x onerror=alert(1)&gt;</p>\n');
  });

  it('keeps only http(s) links; javascript:, data:, vbscript:, file: and relative links stay text', () => {
    const unsafe = [
      '[x](javascript:alert(1))',
      '[x](JaVaScRiPt:alert(1))',
      '[x](&#106;avascript:alert(1))',
      '[x](java\nscript:alert(1))',
      '[x]( javascript:alert(1))',
      '<javascript:alert(1)>',
      '[x](data:text/html;base64,PHNjcmlwdD4=)',
      '[x](vbscript:msgbox)',
      '[x](file:///etc/passwd)',
      '[x](/relative/path)',
      '[x](#anchor)',
      '[x][ref]\n\n[ref]: javascript:alert(1)',
      'mail me: someone@example.com',
    ];
    for (const text of unsafe) {
      const html = renderMarkdown(text);
      assert.doesNotMatch(html, /<a\b/i, `${text} -> ${html}`);
      assert.doesNotMatch(html, /href=/i, `${text} -> ${html}`);
    }
    const html = renderMarkdown('[docs](https://example.com/a?b=1&c=2) and <http://example.org> and https://example.net/x');
    assert.match(html, /<a href="https:\/\/example\.com\/a\?b=1&amp;c=2" rel="noopener noreferrer">docs<\/a>/);
    assert.match(html, /<a href="http:\/\/example\.org" rel="noopener noreferrer">/);
    assert.match(html, /<a href="https:\/\/example\.net\/x" rel="noopener noreferrer">/);
  });

  it('never loads Markdown images: http(s) ones become links, others text', () => {
    const remote = renderMarkdown('![a *cat*](https://example.com/cat.png "t")');
    assert.doesNotMatch(remote, /<img\b/i);
    assert.match(remote, /<a class="md-image" href="https:\/\/example\.com\/cat\.png"[^>]*>Image: a cat<\/a>/);
    for (const text of ['![x](data:image/png;base64,AAAA)', '![x](javascript:alert(1))', '![x](/local.png)']) {
      const html = renderMarkdown(text);
      assert.doesNotMatch(html, /<img\b|href=/i, `${text} -> ${html}`);
    }
  });

  it('escapes attribute breakouts in link and image URLs', () => {
    const html = renderMarkdown('[x](https://e.com/"onmouseover="alert(1)) ![y](https://e.com/"onerror="alert(1))');
    assert.doesNotMatch(html, /"\s*on\w+=/i, html);
  });

  it('isSafeLink accepts absolute http(s) URLs only', () => {
    assert.ok(isSafeLink('https://example.com'));
    assert.ok(isSafeLink('HTTP://EXAMPLE.COM/x'));
    for (const url of ['javascript:alert(1)', 'data:image/png;base64,AA', '//example.com', '/x', 'mailto:a@b.c', 'https://', 'http//x']) {
      assert.equal(isSafeLink(url), false, url);
    }
  });

  it('renders a 20k-character reply in a few milliseconds', () => {
    const block = (i: number) => `Paragraph ${i} with **bold**, \`code\` and a [link](https://example.com/${i}).\n\n- item\n- item\n\n`;
    const text = Array.from({ length: 400 }, (_, i) => block(i)).join('').slice(0, 20_000);
    for (let i = 0; i < 5; i++) renderMarkdown(text); // warm-up (JIT)
    const runs = 10;
    const started = performance.now();
    for (let i = 0; i < runs; i++) renderMarkdown(text);
    const perRender = (performance.now() - started) / runs;
    // Typically ~8 ms here; the bound only catches an accidental blow-up (e.g. quadratic rules).
    assert.ok(perRender < 100, `${perRender.toFixed(1)} ms per render`);
  });
});
