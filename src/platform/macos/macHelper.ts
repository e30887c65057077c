import { HelperProcess } from '../helperProcess';
import { MAC_HELPER_SCRIPT, type MacCommand } from './macHelperScript';

// One long-lived `osascript -l JavaScript` helper (macHelperScript.ts) keeps AppKit and the
// Accessibility API loaded for the window, accessibility and permission ports. Started on the
// first question, it answers JSON lines by request id, is restarted once after a crash, ends
// when idle, and exits when its stdin closes, so it never outlives us (HelperProcess).

export interface MacHelperOptions {
  /** The program to start; default /usr/bin/osascript. Tests start a scripted helper. */
  command?: string;
  /** Its arguments; default `-l JavaScript -e <script>`. */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** Ends the helper after this long without a question; 0: never. */
  idleMs?: number;
}

export interface MacRequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type MacAnswer = Record<string, unknown>;

export class MacHelper {
  private readonly helper: HelperProcess;

  constructor(options: MacHelperOptions = {}) {
    this.helper = new HelperProcess({
      name: 'the macOS helper (osascript)',
      launch: () => ({
        command: options.command ?? '/usr/bin/osascript',
        args: options.args ?? ['-l', 'JavaScript', '-e', MAC_HELPER_SCRIPT],
        env: options.env ?? process.env,
      }),
      // Each call in it is synchronous, so no answer means it hangs: the next question starts a new one.
      killOnTimeout: true,
      idleMs: options.idleMs,
    });
  }

  get pid(): number | undefined {
    return this.helper.pid;
  }

  get startCount(): number {
    return this.helper.startCount;
  }

  request(cmd: MacCommand, params: Record<string, unknown> = {}, options: MacRequestOptions = {}): Promise<MacAnswer> {
    return this.helper.request(cmd, params, options);
  }

  /** Ends the helper for good: later requests fail. */
  dispose(): Promise<void> {
    return this.helper.dispose();
  }
}
