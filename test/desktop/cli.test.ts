import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchFixture, suiteDisplay, type Fixture } from './support/fixture';
import { BUILT_CLI, runBuiltCli, type CliOutcome } from './support/builtCli';

const display = suiteDisplay();
const CLI = BUILT_CLI;
// An empty config home: the user's own config must not change what these tests see.
const configHome = mkdtempSync(join(tmpdir(), 'gai-cfg-'));

function gai(args: string[]): Promise<CliOutcome> {
  return runBuiltCli(args, { ...display.env, XDG_CONFIG_HOME: configHome });
}

describe('gai desktop commands (built CLI on the suite display)', function () {
  this.timeout(90_000);
  let app: Fixture;

  before(async function () {
    if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: npm test builds it before the suites');
    app = await launchFixture(display);
  });
  after(async () => {
    await app?.close();
    rmSync(configHome, { recursive: true, force: true });
  });

  it('gai screenshot writes a PNG of the screen', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gai-shot-')), 'screen.png');
    const { code, stdout } = await gai(['screenshot', '--out', out]);
    assert.equal(code, 0, stdout);
    const bytes = readFileSync(out);
    assert.equal(bytes.subarray(1, 4).toString(), 'PNG');
    assert.equal(bytes.readUInt32BE(16), 1920, 'full width, not downscaled');
  });

  it('gai ocr prints the text on the screen', async () => {
    const { code, stdout } = await gai(['ocr']);
    assert.equal(code, 0);
    assert.match(stdout, /Cancel/);
    assert.match(stdout, /Right panel/);
  });

  it('gai click TEXT and gai click --x --y land on the widget', async () => {
    const byText = await gai(['click', 'Apply']);
    assert.equal(byText.code, 0, byText.stderr);
    await app.waitFor((e) => e.event === 'click' && e.widget === 'apply_button');
    const cancel = app.widget('cancel_button');
    const byPoint = await gai(['click', '--x', String(cancel.x + 10), '--y', String(cancel.y + 10), '--json']);
    assert.equal(byPoint.code, 0, byPoint.stderr);
    assert.equal(JSON.parse(byPoint.stdout).success, true);
    await app.waitFor((e) => e.event === 'click' && e.widget === 'cancel_button');
  });

  it('gai type and gai key arrive in the focused field', async () => {
    const entry = app.widget('email_entry');
    await gai(['click', '--x', String(entry.x + 15), '--y', String(entry.y + entry.height / 2)]);
    await app.waitFor((e) => e.event === 'focus' && e.widget === 'email_entry');
    const typed = await gai(['type', 'me@example.org']);
    assert.equal(typed.code, 0, typed.stderr);
    await app.waitFor((e) => e.event === 'text' && e.widget === 'email_entry' && e.value === 'me@example.org');
    const key = await gai(['key', 'ctrl+a']);
    assert.equal(key.code, 0, key.stderr);
    await app.waitFor((e) => e.event === 'key' && e.widget === 'email_entry' && (e.state as string[]).includes('Control'));
  });

  it('gai scroll and a missing text', async () => {
    const scrolled = await gai(['scroll', 'down', '--text', 'Item 3']);
    assert.equal(scrolled.code, 0, scrolled.stderr);
    await app.waitFor((e) => e.event === 'scroll' && e.direction === 'down');
    const missing = await gai(['click', 'Nonexistent Button']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /NOT_FOUND/);
  });
});
