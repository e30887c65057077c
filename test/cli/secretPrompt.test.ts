import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { terminalSecretPrompt } from '../../src/cli/secretPrompt';

// The terminal prompt for a secret step of a learned way: nothing typed is echoed.

function terminal(): { input: PassThrough & { isTTY: boolean; setRawMode(mode: boolean): void; raw: boolean[] }; output: PassThrough; shown(): string } {
  const input = Object.assign(new PassThrough(), { isTTY: true, raw: [] as boolean[] });
  const tty = Object.assign(input, { setRawMode: (mode: boolean) => void input.raw.push(mode) });
  const output = new PassThrough();
  let text = '';
  output.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return { input: tty, output, shown: () => text };
}

describe('terminal secret prompt', () => {
  it('reads up to Enter in raw mode without echo, with backspace, and restores the terminal', async () => {
    const t = terminal();
    const answer = terminalSecretPrompt(t.input, t.output)('type a secret (6 characters, not stored)', new AbortController().signal);
    t.input.write('hunterX');
    t.input.write('\u007f2\r');
    assert.equal(await answer, 'hunter2');
    assert.deepEqual(t.input.raw, [true, false]);
    assert.equal(t.shown(), 'type a secret (6 characters, not stored)\nSecret (not shown): \n');
  });

  it('Ctrl+C gives no answer', async () => {
    const t = terminal();
    const answer = terminalSecretPrompt(t.input, t.output)('label', new AbortController().signal);
    t.input.write('abc\u0003');
    assert.equal(await answer, undefined);
  });

  it('a stop of the navigation gives no answer and leaves raw mode', async () => {
    const t = terminal();
    const controller = new AbortController();
    const answer = terminalSecretPrompt(t.input, t.output)('label', controller.signal);
    t.input.write('abc');
    controller.abort();
    assert.equal(await answer, undefined);
    assert.deepEqual(t.input.raw, [true, false]);
  });
});
