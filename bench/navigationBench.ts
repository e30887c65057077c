import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { VirtualDisplay } from '../src/desktop/virtualDisplay';
import type { BenchRow } from './benchReport';

/** Learning against replaying one target on a private display, measured in a child process. */
export async function runNavigationBench(): Promise<BenchRow[]> {
  const display = await VirtualDisplay.start();
  try {
    const output = await new Promise<string>((done, fail) => {
      const child = spawn(process.execPath, ['--import=tsx', resolve(__dirname, 'navigationBenchChild.ts')], { env: display.env, stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      child.once('error', fail);
      child.once('exit', (code) => (code === 0 ? done(text) : fail(new Error(`navigation bench exited with ${code}`))));
    });
    const line = output.split('\n').find((l) => l.startsWith('BENCH_ROWS '));
    if (!line) throw new Error('navigation bench printed no results');
    return JSON.parse(line.slice('BENCH_ROWS '.length)) as BenchRow[];
  } finally {
    await display.stop();
  }
}
