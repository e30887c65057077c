import { Type, type Static } from '@sinclair/typebox';
import { errorMessage } from '../../common/errors';
import { neutralizeScreenText, quoteScreenText } from '../../common/screenText';
import { sleep } from '../../common/timing';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import type { WindowInfo } from '../../desktop/ports/windowPort';
import { appNameProblem, InvalidAppNameError, LaunchNotAllowedError, MAX_APP_NAME_LENGTH } from '../../desktop/input/launchNames';
import { waitForSettle } from '../../desktop/reading/settle';
import { toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';
import { withInstructionFlags } from './untrustedScreen';

const schema = toolInput({
  appName: Type.String({
    minLength: 1,
    maxLength: MAX_APP_NAME_LENGTH,
    description: 'Name of an installed application as a person would say it, e.g. "Calculator", "Text Editor"; never a path or a command line',
  }),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 500, maximum: 60_000, description: 'How long to wait for its window', default: 10_000 })),
});

/**
 * Starts an installed application by name (never through a shell; a program without a desktop
 * entry only when the person allowed it by name) and waits until a new window is active
 * (bounded), instead of the seed's fixed 2 s sleep, then reports that window.
 */
export class LaunchAppTool extends ToolBase<typeof schema> {
  readonly name = 'launch_app';
  readonly description =
    'Start an installed application by its name (desktop entries on Linux, app bundles on macOS, the Start menu on Windows) and wait for its window. Paths, command lines and other programs are refused.';
  readonly inputSchema = schema;
  readonly risk = 'system' as const;
  override readonly timeoutMs = 70_000;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  async execute(input: Static<typeof schema>, context: ToolContext): Promise<ToolResult> {
    const { windows, launcher, screen } = this.services.desktop;
    const before = await windows.activeWindow();
    let launched;
    try {
      launched = await launcher.launch(input.appName, context.signal);
    } catch (error) {
      if (error instanceof InvalidAppNameError) return ToolResults.invalidInput(this.name, [error.problem]);
      if (error instanceof LaunchNotAllowedError) {
        return ToolResults.failure('DENIED', `launch_app denied: ${error.message}`, {
          observation: `launch_app did NOT run ${error.executable}: ${error.message}.`,
          hint: 'Use the name of an installed application (as its menu entry shows it), or ask the person to allow the program.',
        });
      }
      return ToolResults.notFound(`Cannot launch "${input.appName}": ${errorMessage(error)}`, 'Check the name (e.g. the one shown in the app menu) or ask the user.');
    }
    const timeoutMs = input.timeoutMs ?? 10_000;
    const started = performance.now();
    let window: WindowInfo | undefined;
    while (performance.now() - started < timeoutMs && !context.signal.aborted) {
      const active = await windows.activeWindow();
      if (active && isNew(active, before)) {
        window = active;
        break;
      }
      await sleep(100, context.signal);
    }
    if (context.signal.aborted) return ToolResults.cancelled(this.name, `"${input.appName}" was started (${launched.method}) but its window was not awaited`);
    if (!window) {
      return ToolResults.failure('TIMEOUT', `Started "${input.appName}" (${launched.method}) but no new window became active within ${timeoutMs} ms.`, {
        hint: 'It may still be starting, or it opened in the background: read the screen to check.',
        data: { method: launched.method, pid: launched.pid },
      });
    }
    // The window exists; let it finish drawing before anyone reads it.
    await waitForSettle(screen, { region: window.bounds.width > 0 ? window.bounds : undefined, signal: context.signal, timeoutMs: 2_000 });
    // A window's title is the application's text, not the tool's: quoted, and flagged when it gives orders.
    const result = ToolResults.success(`Launched "${input.appName}": window ${quoteScreenText(window.title)} (${quoteScreenText(window.appName, 40)}) is active.`, {
      appName: input.appName,
      method: launched.method,
      pid: launched.pid,
      window: { title: neutralizeScreenText(window.title), appName: neutralizeScreenText(window.appName), bounds: window.bounds },
      waitedMs: Math.round(performance.now() - started),
    });
    return withInstructionFlags(result, [{ text: window.title, source: 'window title' }]);
  }

  /** A path or shell syntax is refused before anything runs, naming the field. */
  protected override checkInput(input: Static<typeof schema>): string | undefined {
    return appNameProblem(input.appName);
  }
}

function isNew(active: WindowInfo, before: WindowInfo | undefined): boolean {
  if (!before) return true;
  if (active.id !== undefined && before.id !== undefined) return active.id !== before.id;
  return active.title !== before.title || active.appName !== before.appName;
}
