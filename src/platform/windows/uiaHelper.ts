import { HelperProcess } from '../helperProcess';
import { UIA_HELPER_CSHARP, UIA_HELPER_SCRIPT, type UiaCommand } from './uiaHelperScript';

// One long-lived Windows PowerShell helper (uiaHelperScript.ts) keeps UI Automation and the
// compiled Win32 calls warm for the window, accessibility and interrupt ports. Started on the
// first question, it answers JSON lines by request id and exits when its stdin closes, so it
// never outlives us (HelperProcess). The script goes in -EncodedCommand (stdin is the protocol's),
// the C# in an environment variable (a command line holds 32K characters; the C# alone is half
// that in base64).

const START_TIMEOUT_MS = 30_000; // Add-Type compiles the C# with csc: seconds on a cold machine
const NAME = 'the UI Automation helper';

export interface UiaHelperOptions {
  /** The program to start; default powershell.exe (Windows PowerShell 5.1). Tests start a scripted helper. */
  command?: string;
  /** Its arguments; default the PowerShell flags and the encoded script. */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** Ends the helper after this long without a question; 0: never. */
  idleMs?: number;
  startTimeoutMs?: number;
}

export interface UiaEvent {
  event: string;
  trigger?: string;
}

export type UiaAnswer = Record<string, unknown>;

export class UiaHelper {
  private readonly helper: HelperProcess;

  constructor(options: UiaHelperOptions = {}) {
    this.helper = new HelperProcess({
      name: NAME,
      launch: () => ({
        command: options.command ?? 'powershell.exe',
        args: options.args ?? [
          '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand', Buffer.from(UIA_HELPER_SCRIPT, 'utf16le').toString('base64'),
        ],
        env: { ...(options.env ?? process.env), GAI_UIA_CSHARP: UIA_HELPER_CSHARP },
      }),
      // Each UIA call is bounded by UIA's own timeouts, so no answer means it hangs: start a new one next time.
      killOnTimeout: true,
      idleMs: options.idleMs,
      helloTimeoutMs: options.startTimeoutMs ?? START_TIMEOUT_MS,
      startError: (error, command) => `did not start: ${error.code === 'ENOENT' ? `${command} not found (Windows PowerShell 5.1 comes with Windows 10 and 11; is it on PATH?)` : error.message}`,
      answerError: (error) => `${NAME}: ${error ?? 'failed'}`,
    });
  }

  get pid(): number | undefined {
    return this.helper.pid;
  }

  get startCount(): number {
    return this.helper.startCount;
  }

  /** Hears the events of a running watch (the stop hotkey, the corner; `ended` when the helper did); returns the unsubscribe. */
  onEvent(listener: (event: UiaEvent) => void): () => void {
    return this.helper.onEvent(listener);
  }

  /** Starts the helper when needed; resolves with its hello ({dpiAware}). */
  start(): Promise<UiaAnswer> {
    return this.helper.start();
  }

  request(cmd: UiaCommand, params: Record<string, unknown> = {}, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<UiaAnswer> {
    return this.helper.request(cmd, params, options);
  }

  dispose(): Promise<void> {
    return this.helper.dispose();
  }
}
