// In-host test of the picture panel (issue 12): a chat picture opens full size in an editor tab.
// The chat's click on a picture posts `openPicture` (test/vscode/picturePanel.test.ts checks that
// in the real bundle); here the host gets that message and must open a webview panel in the
// editor area whose page loads under its CSP, says ready and gets the picture.
'use strict';
/* global describe, it, after */ // mocha's BDD globals

const assert = require('node:assert/strict');
const vscode = require('vscode');

const EXTENSION_ID = 'gai.gai';
// A 2×1 PNG; the panel shows whatever inline raster image the entry has.
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAD0lEQVQImWMwTptpnDYTAAeZAmUGcC4NAAAAAElFTkSuQmCC';

const support = require(process.env.GAI_HOST_SUPPORT);
const waitFor = (what, predicate, timeoutMs) => support.waitFor(what, predicate, timeoutMs);

/** The editor tabs that are webview panels of this view type. */
function pictureTabs() {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('gai.picture'));
}

describe('GAI picture panel', () => {
  after(async () => {
    for (const tab of pictureTabs()) await vscode.window.tabGroups.close(tab);
  });

  it('a picture of the chat opens full size in an editor tab, which is reused for the next one', async () => {
    const api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    const picture = { src: PNG, width: 1280, height: 800, boxes: [{ x: 10, y: 10, width: 60, height: 16, text: 'File' }], points: [{ x: 40, y: 18, label: 'clicked "File"', kind: 'click' }] };
    const first = api.addScreen('Screen (quick)', 'A text editor with a File menu.', picture);
    const second = api.addScreen('Screen (detailed)', 'The same editor, read in detail.', { ...picture, points: [] });
    assert.equal(pictureTabs().length, 0, 'no picture tab before a click');

    assert.equal(api.simulateWebviewMessage({ type: 'openPicture', index: first }), true);
    const panel = await waitFor('the picture page to load and say ready', () => {
      const shown = api.picturePanel();
      return shown && shown.readyCount > 0 ? shown : undefined;
    });
    assert.equal(panel.title, 'Picture: Screen (quick)');
    assert.equal(panel.showing, 'Screen (quick)');
    const tabs = pictureTabs();
    assert.equal(tabs.length, 1, 'one webview panel in the editor area');
    assert.equal(tabs[0].label, 'Picture: Screen (quick)');
    assert.equal(tabs[0].isActive, true);

    assert.equal(api.simulateWebviewMessage({ type: 'openPicture', index: second }), true);
    await waitFor('the tab to show the second picture', () => api.picturePanel()?.showing === 'Screen (detailed)');
    assert.equal(pictureTabs().length, 1, 'the same tab, reused');
    assert.equal(api.picturePanel().title, 'Picture: Screen (detailed)');

    // An entry without that picture opens nothing (and the message is still well-formed).
    assert.equal(api.simulateWebviewMessage({ type: 'openPicture', index: first, after: true }), true);
    assert.equal(api.picturePanel().showing, 'Screen (detailed)');
    // A malformed one is rejected by validation.
    assert.equal(api.simulateWebviewMessage({ type: 'openPicture', index: -1 }), false);
  });
});
