import { strict as assert } from 'node:assert';
import { describeAction, escapeMarkdown } from '../../src/tools/actionDescription';
import { renderInlineMarkdown } from '../../src/webview/render/markdown';

describe('describeAction: approvals say what will happen', () => {
  it('a click by point names the point and the window, and keeps the point for a picture', () => {
    const described = describeAction({ name: 'click', input: { x: 1570, y: 576 } }, { windowTitle: 'galculator' });
    assert.equal(described.text, 'Click at (1570, 576) in *galculator*');
    assert.deepEqual(described.point, { x: 1570, y: 576 });
  });

  it('a click at a point says what is there when the reading knows (the computer tool too)', () => {
    assert.equal(describeAction({ name: 'click', input: { x: 1570, y: 576 } }, { windowTitle: 'galculator', targetText: '7' }).text, 'Click **7** at (1570, 576) in *galculator*');
    assert.equal(describeAction({ name: 'computer', input: { action: 'left_click', coordinate: [785, 288] } }, { computerScale: 2, targetText: '7' }).text, 'Click **7** at (1570, 576) ((785, 288) of the screenshot)');
  });

  it('a click by text names the text; its point is not known before it runs', () => {
    const described = describeAction({ name: 'click', input: { text: '7', clicks: 2, button: 'right' } }, { windowTitle: 'galculator' });
    assert.equal(described.text, 'Right-double-click **7** in *galculator*');
    assert.equal(described.point, undefined);
  });

  it('a click by text says which way it acts: through accessibility with the pointer staying, or with the pointer', () => {
    const click = { name: 'click', input: { text: 'OK' } };
    assert.equal(describeAction(click, { appName: 'galculator', way: 'accessibility' }).text, 'Click **OK** through accessibility (the pointer stays) in *galculator*');
    assert.equal(describeAction(click, { appName: 'galculator', way: 'pointer' }).text, 'Click **OK** with the pointer in *galculator*');
    assert.equal(
      describeAction(click, { way: 'pointer-after-press' }).text,
      'Click **OK** with the pointer (pressing it through accessibility changed nothing)',
    );
    // Without a located way (nothing said before it runs), the sentence does not guess.
    assert.equal(describeAction(click).text, 'Click **OK**');
  });

  it('typing names the focused field and window; a masked secret stays masked', () => {
    assert.equal(
      describeAction({ name: 'type_text', input: { text: 'Hello', pressEnter: true } }, { focusedName: 'Name', windowTitle: 'Firefox' }).text,
      'Type `Hello` into *Name* of *Firefox*, then press **Enter**',
    );
    const secret = describeAction({ name: 'type_text', input: { text: '••••• (12 characters)', secret: true } }, { windowTitle: 'Login' }).text;
    assert.equal(secret, 'Type a secret \\(12 characters\\) in *Login*');
    assert.ok(!secret.includes('`'));
  });

  it('keys, scrolls, drags, launches and navigations', () => {
    assert.equal(describeAction({ name: 'press_key', input: { key: 's', modifiers: ['ctrl'] } }).text, 'Press **ctrl\\+s**');
    assert.equal(describeAction({ name: 'press_key', input: { key: ['Tab', 'Return'] } }).text, 'Press **Tab**, then **Return**');
    assert.equal(describeAction({ name: 'scroll', input: { direction: 'down', amount: 5, text: 'Results' } }).text, 'Scroll down 5 steps at **Results**');
    const drag = describeAction({ name: 'drag', input: { from: { x: 10, y: 20 }, to: { x: 300, y: 400 } } });
    assert.equal(drag.text, 'Drag from (10, 20) to (300, 400)');
    assert.deepEqual(drag.point, { x: 10, y: 20 });
    assert.equal(describeAction({ name: 'launch_app', input: { appName: 'Calculator' } }).text, 'Launch *Calculator*');
    assert.equal(describeAction({ name: 'navigate_to', input: { target: 'Network settings' } }).text, 'Go to *Network settings*');
  });

  it('the computer tool: screenshot pixels, and the screen point when the scale is known', () => {
    assert.equal(describeAction({ name: 'computer', input: { action: 'left_click', coordinate: [100, 50] } }).text, 'Click at (100, 50) of the screenshot');
    const scaled = describeAction({ name: 'computer', input: { action: 'double_click', coordinate: [100, 50] } }, { computerScale: 2, windowTitle: 'Files' });
    assert.equal(scaled.text, 'Double-click at (200, 100) ((100, 50) of the screenshot) in *Files*');
    assert.deepEqual(scaled.point, { x: 200, y: 100 });
    assert.equal(describeAction({ name: 'computer', input: { action: 'type', text: 'hi' } }).text, 'Type `hi`');
    assert.equal(describeAction({ name: 'computer', input: { action: 'key', text: 'ctrl+s' } }).text, 'Press **ctrl\\+s**');
  });

  it('screen and model strings cannot change the Markdown: escaped, backticks fenced, invisibles shown', () => {
    const sneaky = describeAction({ name: 'click', input: { text: '**OK** [x](https://e.vil)' } }, { windowTitle: '_win_ <b>' }).text;
    const html = renderInlineMarkdown(sneaky);
    assert.ok(!html.includes('<a'), html);
    assert.ok(!html.includes('<b>'), html);
    assert.ok(html.includes('**OK** [x](https://e.vil)'), html);
    assert.equal((html.match(/<strong>/g) ?? []).length, 1, html);
    const typed = describeAction({ name: 'type_text', input: { text: 'a`b\n' } }).text;
    assert.equal(typed, 'Type ``a`b\\n``');
    assert.equal(escapeMarkdown('a\u202eb'), 'a\\\\u202eb');
  });
});
