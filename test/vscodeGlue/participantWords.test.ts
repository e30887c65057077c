import { strict as assert } from 'node:assert';
import { plainText, progressText } from '../../src/vscode/lm/participantWords';

describe('@gai participant progress lines', () => {
  it('words an action with its target and window, as a gerund, in plain text', () => {
    assert.equal(progressText({ name: 'click', input: { text: '7' } }, 'galculator'), 'Clicking 7 in galculator…');
    assert.equal(progressText({ name: 'press_key', input: { key: 'Return' } }), 'Pressing Return…');
    assert.equal(progressText({ name: 'launch_app', input: { appName: 'gedit' } }), 'Launching gedit…');
    assert.equal(progressText({ name: 'navigate_to', input: { target: 'Network settings' } }), 'Going to Network settings…');
  });

  it('words the read tools, and any other tool by its name', () => {
    assert.equal(progressText({ name: 'ocr', input: {} }), 'Reading the screen text…');
    assert.equal(progressText({ name: 'screen_capture', input: {} }, 'galculator'), 'Taking a screenshot…');
    assert.equal(progressText({ name: 'fs_read', input: {} }), 'Running fs_read…');
  });

  it('keeps characters that were escaped, drops the emphasis marks', () => {
    assert.equal(plainText('Click **a\\*b** in *x\\_y*'), 'Click a*b in x_y');
  });
});
