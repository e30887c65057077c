import { Option, type Command } from 'commander';
import { out, EXIT, type CliIo } from '../../common/cliIo';
import type { ToolRuntime } from '../../runtime/toolRuntime';

export function registerToolsCommand(program: Command, io: CliIo, runtime: (profile?: string) => ToolRuntime, setExit: (code: number) => void): void {
  program
    .command('tools')
    .description('list the tools the model can use')
    .option('--json', 'print the definitions as JSON')
    .addOption(new Option('--format <format>', 'definition format with --json').choices(['anthropic', 'openai']).default('anthropic'))
    .option('--profile <profile>', 'tool profile: read-only, standard or full')
    .action((options: { json?: boolean; format: string; profile?: string }) => {
      const rt = runtime(options.profile);
      if (options.json) {
        const definitions =
          options.format === 'openai'
            ? rt.getOpenAiDefinitions()
            : rt.getDefinitions().map((d) => ({ name: d.name, description: d.description, input_schema: d.inputSchema }));
        out(io, JSON.stringify(definitions, null, 2) + '\n');
      } else {
        for (const definition of rt.getDefinitions()) {
          const risk = rt.riskOf(definition.name) ?? 'read';
          out(io, `${definition.name.padEnd(22)} ${risk.padEnd(7)} ${definition.description}\n`);
        }
      }
      setExit(EXIT.ok);
    });
}
