import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { GaiError, errorMessage } from '../../common/errors';
import type { ToolResult } from '../../tools/toolTypes';
import type { ToolRuntime } from '../../runtime/toolRuntime';
import { err, out, EXIT, type CliIo } from '../../common/cliIo';

export interface ToolCommandOptions {
  input?: string;
  json?: boolean;
  yes?: boolean;
  profile?: string;
}

export function registerToolCommand(
  program: Command,
  io: CliIo,
  runtime: (profile?: string, yes?: boolean) => ToolRuntime,
  setExit: (code: number) => void,
): void {
  program
    .command('tool')
    .description('run one tool and print its result')
    .argument('<name>', 'tool name (see `gai tools`)')
    .option('--input <json>', 'the tool input as a JSON object', '{}')
    .option('--json', 'print the whole result as JSON')
    .option('-y, --yes', 'approve action tools without asking')
    .option('--profile <profile>', 'tool profile: read-only, standard (default) or full')
    .action(async (name: string, options: ToolCommandOptions) => {
      const input = parseJsonInput(options.input ?? '{}');
      const tools = runtime(options.profile, options.yes);
      const result = withPolicyHint(tools, name, await runTool(tools, name, input));
      printResult(io, result, options.json ?? false);
      setExit(toolExitCode(result, tools.riskOf(name) !== undefined));
    });
}

/** Runs one call through the runtime with Ctrl+C as cancel. */
export async function runTool(runtime: ToolRuntime, name: string, input: unknown): Promise<ToolResult> {
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const { result } = await runtime.executeWithRecovery({ id: `cli_${randomUUID()}`, name, input }, controller.signal);
    return result;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

/**
 * A tool name that does not exist or input the tool rejects is the person's mistake on the
 * command line: bad usage (2), as for bad flags. Anything else that failed is 1.
 */
export function toolExitCode(result: ToolResult, known: boolean): number {
  if (result.success) return EXIT.ok;
  return !known || result.code === 'INVALID_INPUT' ? EXIT.usage : EXIT.failed;
}

/** A tool hidden by the policy: the runtime's hint speaks to a model; the person gets the flag. */
function withPolicyHint(tools: ToolRuntime, name: string, result: ToolResult): ToolResult {
  const risk = tools.riskOf(name);
  if (result.success || risk === undefined || tools.policy.permits({ name, risk })) return result;
  const hint = tools.policy.refusal({ name, risk }).includes('deny list')
    ? `${name} is on tools.deny in the config file; remove it there to run it`
    : `run it with --profile full, or set tools.profile or tools.allow in the config file`;
  return { ...result, hint };
}

export function parseJsonInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new GaiError('INVALID_INPUT', `--input: not valid JSON (${errorMessage(error)})`);
  }
}

export function printResult(io: CliIo, result: ToolResult, json: boolean): void {
  if (json) {
    out(io, JSON.stringify(result, null, 2) + '\n');
    return;
  }
  if (result.success) {
    out(io, `${result.observation}\n`);
    if (result.data !== undefined) out(io, JSON.stringify(result.data, null, 2) + '\n');
  } else {
    err(io, `${result.code}: ${result.error}\n`);
    if (result.observation !== result.error) err(io, `${result.observation}\n`);
    if (result.hint) err(io, `hint: ${result.hint}\n`);
  }
}
