import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { terminalAppPrompt } from '../../src/cli/appPermissionPrompt';
import { appPermissionsFile } from '../../src/app/gaiFiles';

async function ask(answer: string): Promise<{ choice: unknown; shown: string }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  const prompt = terminalAppPrompt(input, output);
  const pending = prompt({ app: 'gedit', key: 'gedit', title: 'notes.txt - gedit', call: { id: 'c1', name: 'click', input: { text: 'Save' } } }, new AbortController().signal);
  input.write(`${answer}\n`);
  return { choice: await pending, shown };
}

describe('terminal app permission prompt', () => {
  it('names the app, the window and the call, and offers the four choices', async () => {
    const { shown } = await ask('o');
    assert.match(shown, /GAI wants to click \{"text":"Save"\} in gedit \(window "notes\.txt - gedit"\)/);
    assert.match(shown, /Allow GAI to act in gedit\? \[o\]nce \/ \[c\]onversation \/ \[a\]lways \/ \[n\]ever, Enter: not now/);
  });

  for (const [answer, choice] of [
    ['o', 'once'],
    ['Once', 'once'],
    ['c', 'conversation'],
    ['a', 'always'],
    [' ALWAYS ', 'always'],
    ['n', 'never'],
    ['never', 'never'],
    ['', undefined],
    ['y', undefined],
  ] as const) {
    it(`${JSON.stringify(answer)} → ${String(choice)}`, async () => {
      assert.equal((await ask(answer)).choice, choice);
    });
  }

  it('keeps answers next to the config file', () => {
    assert.equal(appPermissionsFile({ XDG_CONFIG_HOME: '/cfg' }), '/cfg/gai/app-permissions.json');
  });
});
