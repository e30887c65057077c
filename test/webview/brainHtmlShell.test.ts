// The brain panel's HTML shell: a strict CSP, the script only by nonce, no inline styles.
import { strict as assert } from 'node:assert';
import { brainCsp, brainHtmlFor } from '../../src/vscode/brain/brainHtmlShell';

const origin = 'https://file+.vscode-resource.vscode-cdn.net';
const parts = {
  cspSource: origin,
  scriptUri: `${origin}/ext/media/dist/brainView.js`,
  styleUri: `${origin}/ext/media/brain.css`,
  codiconsUri: `${origin}/ext/media/dist/codicons/codicon.css`,
  nonce: 'abc+/123==',
};

describe('brain panel HTML shell', () => {
  it('has a strict CSP: nothing by default, script by nonce, styles/fonts from the webview, images from it and data: only', () => {
    assert.equal(brainCsp(origin, parts.nonce), `default-src 'none'; img-src ${origin} data:; style-src ${origin}; font-src ${origin}; script-src 'nonce-${parts.nonce}'`);
    const html = brainHtmlFor(parts);
    assert.ok(html.includes(`content="${brainCsp(origin, parts.nonce)}"`));
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval|blob:|https:(?!\/\/file\+)/);
    assert.equal((html.match(/data:/g) ?? []).length, 1, 'data: only for images');
  });

  it('loads one script by nonce, links the codicons by the id vscode-elements looks for, has no inline style or handler', () => {
    const html = brainHtmlFor(parts);
    assert.ok(html.includes(`<script nonce="${parts.nonce}" src="${parts.scriptUri}"></script>`));
    assert.ok(html.includes(`<link rel="stylesheet" id="vscode-codicon-stylesheet" href="${parts.codiconsUri}">`));
    assert.ok(html.includes(`<link rel="stylesheet" href="${parts.styleUri}">`));
    assert.equal((html.match(/<script\b/g) ?? []).length, 1);
    assert.doesNotMatch(html, /<style\b|\sstyle=/i);
    assert.doesNotMatch(html, /\son[a-z]+=/i);
    for (const id of ['stats', 'refresh', 'message', 'graph', 'side']) assert.ok(html.includes(`id="${id}"`), id);
  });

  it('escapes what it puts into attributes', () => {
    const html = brainHtmlFor({ ...parts, styleUri: 'https://x/"><script>alert(1)</script>' });
    assert.equal((html.match(/<script\b/g) ?? []).length, 1);
  });
});
