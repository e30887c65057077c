import type { SecretPrompt } from '../navigation/routes/pathReplayer';

/**
 * Asks on the terminal for a secret a learned step typed (it is never stored): the characters
 * are not echoed (raw mode), Enter ends, Ctrl+C or Ctrl+D on an empty line gives no answer.
 */
export function terminalSecretPrompt(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): SecretPrompt {
  return (label, signal) =>
    new Promise<string | undefined>((resolve) => {
      const tty = input as NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
      const raw = tty.isTTY === true && typeof tty.setRawMode === 'function';
      let value = '';
      const finish = (answer: string | undefined): void => {
        input.removeListener('data', onData);
        signal.removeEventListener('abort', onAbort);
        if (raw) tty.setRawMode?.(false);
        input.pause();
        output.write('\n');
        resolve(answer);
      };
      const onAbort = (): void => finish(undefined);
      const onData = (chunk: Buffer | string): void => {
        for (const ch of String(chunk)) {
          if (ch === '\r' || ch === '\n') return finish(value);
          if (ch === '\u0003' || (ch === '\u0004' && value === '')) return finish(undefined);
          if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
          else if (ch >= ' ') value += ch;
        }
      };
      if (signal.aborted) return resolve(undefined);
      output.write(`${label}\nSecret (not shown): `);
      if (raw) tty.setRawMode?.(true);
      signal.addEventListener('abort', onAbort, { once: true });
      input.on('data', onData);
      input.resume();
    });
}
