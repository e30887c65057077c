import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { VirtualDisplay } from '../src/platform/linux/x11/virtualDisplay';
import type { BenchRow } from './benchReport';

/**
 * Runs bench/`childFile` with tsx on a private virtual display and returns the rows it printed
 * on its `BENCH_ROWS <json>` line. A child process, so what is measured starts with the private
 * display's environment and never touches the person's own. `what` names the bench in errors.
 */
export async function runBenchChild(childFile: string, what: string): Promise<BenchRow[]> {
  const display = await VirtualDisplay.start();
  try {
    const output = await new Promise<string>((done, fail) => {
      const child = spawn(process.execPath, ['--import=tsx', resolve(__dirname, childFile)], { env: display.env, stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      child.once('error', fail);
      child.once('exit', (code) => (code === 0 ? done(text) : fail(new Error(`${what} bench exited with ${code}`))));
    });
    const line = output.split('\n').find((l) => l.startsWith('BENCH_ROWS '));
    if (!line) throw new Error(`${what} bench printed no results`);
    return JSON.parse(line.slice('BENCH_ROWS '.length)) as BenchRow[];
  } finally {
    await display.stop();
  }
}
