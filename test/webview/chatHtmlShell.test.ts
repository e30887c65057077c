// The chat view's HTML shell: a strict CSP, the script only by nonce, no inline styles.
import { strict as assert } from 'node:assert';
import { chatCsp, chatHtmlFor } from '../../src/vscode/chat/chatHtmlShell';

const parts = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/dist/webview.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/chat.css',
  codiconsUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/dist/codicons/codicon.css',
  nonce: 'abc+/123==',
};

describe('webview HTML shell', () => {
  it('has a strict CSP: nothing by default, script by nonce, styles/fonts from the webview, images also data:', () => {
    assert.equal(
      chatCsp(parts.cspSource, parts.nonce),
      `default-src 'none'; img-src ${parts.cspSource} data:; style-src ${parts.cspSource}; font-src ${parts.cspSource}; script-src 'nonce-${parts.nonce}'`,
    );
    const html = chatHtmlFor(parts);
    assert.ok(html.includes(`content="${chatCsp(parts.cspSource, parts.nonce)}"`));
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval/);
  });

  it('loads the script by nonce, links the codicons with the id vscode-elements looks for, and has no inline style', () => {
    const html = chatHtmlFor(parts);
    assert.ok(html.includes(`<script nonce="${parts.nonce}" src="${parts.scriptUri}"></script>`));
    assert.ok(html.includes(`<link rel="stylesheet" id="vscode-codicon-stylesheet" href="${parts.codiconsUri}">`));
    assert.equal((html.match(/<script\b/g) ?? []).length, 1);
    assert.doesNotMatch(html, /<style\b|\sstyle=/i);
    assert.doesNotMatch(html, /\son[a-z]+=/i);
  });

  it('escapes what it puts into attributes', () => {
    const html = chatHtmlFor({ ...parts, scriptUri: 'https://x/"><script>alert(1)</script>' });
    assert.equal((html.match(/<script\b/g) ?? []).length, 1);
  });
});
