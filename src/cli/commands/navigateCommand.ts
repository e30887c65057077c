import type { Command } from 'commander';
import type { NavigationBrain, NavigationReport } from '../../navigation/navigationBrain';
import type { LlmSettings } from '../../model/llmConfig';
import { err, EXIT, out, type CliIo } from '../../common/cliIo';
import { modelSettings, withModelOptions, type ModelOptions } from './modelOptions';

// `gai navigate TARGET`: go to a named screen by a learned path (no model), or learn the way
// once with the model and remember it in the brain folder.

export interface NavigateOptions extends ModelOptions {
  json?: boolean;
  brainDir?: string;
  profile?: string;
  yes?: boolean;
}

/** The rules every replayed and learned step obeys, as `gai tool` and `gai ask` take them. */
export interface StepRules {
  profile?: string;
  yes?: boolean;
}

export type BrainOpener = (brainDir: string | undefined, settings: LlmSettings, rules: StepRules) => Promise<NavigationBrain>;

/** The person's stop and takeover watch, for the length of one navigation. */
export interface NavigationWatch {
  begin(cancel: () => void): { end(): Promise<void> };
}

export function registerNavigateCommand(
  program: Command,
  io: CliIo,
  openBrain: BrainOpener,
  setExit: (code: number) => void,
  safety?: NavigationWatch,
): void {
  withModelOptions(
    program
      .command('navigate')
      .description('bring the desktop to a named screen: replays a learned path without the model, or learns it once')
      .argument('<target>', 'where to go, e.g. "Network settings"')
      .option('--json', 'print the navigation report as JSON')
      .option('--brain-dir <dir>', 'the brain folder (default: $GAI_BRAIN_DIR, else the user data folder)')
      .option('--profile <profile>', 'tool profile for the steps: read-only, standard or full (default: the config file, else standard)')
      .option('--yes', 'approve every step without asking (steps of imported, unconfirmed paths still ask or are denied)'),
    'for learning',
  )
    .action(async (target: string, options: NavigateOptions) => {
      const brain = await openBrain(options.brainDir, modelSettings(options), { profile: options.profile, yes: options.yes });
      const controller = new AbortController();
      const onSigint = (): void => {
        err(io, '\nCancelling…\n');
        controller.abort();
      };
      process.on('SIGINT', onSigint);
      const watch = safety?.begin(() => controller.abort());
      try {
        const navigated = await brain.navigateTo(target, {
          signal: controller.signal,
          onProgress: (message) => {
            if (!options.json) err(io, `${message}\n`);
          },
        });
        const report = withApprovalHint(navigated, io.interactive || options.yes === true);
        if (options.json) out(io, `${JSON.stringify({ ...report, durationMs: Math.round(report.durationMs) }, null, 2)}\n`);
        else out(io, `${formatReport(report)}\n`);
        setExit(report.success ? EXIT.ok : EXIT.failed);
      } catch (error) {
        if (controller.signal.aborted) {
          err(io, 'Navigation cancelled.\n');
          setExit(EXIT.cancelled);
          return;
        }
        throw error;
      } finally {
        process.removeListener('SIGINT', onSigint);
        await watch?.end();
      }
    });
}

/** Steps refused because no one could approve them: say how they can be approved. */
function withApprovalHint(report: NavigationReport, couldAsk: boolean): NavigationReport {
  if (!report.denied?.length || couldAsk) return report;
  return { ...report, message: `${report.message}\nApproval needed: run gai navigate in a terminal to approve each step, or with --yes.` };
}

function formatReport(report: NavigationReport): string {
  const how = { 'already-there': 'already there', replayed: 'replayed', learned: 'learned', repaired: 'repaired', failed: 'failed' }[report.how];
  return [
    report.message,
    `  ${how} · ${report.steps} step(s) · ${report.modelCalls} model call(s) · ${Math.round(report.durationMs)} ms · now at ${report.currentNode}`,
  ].join('\n');
}
