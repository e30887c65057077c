import type { Command } from 'commander';
import type { Agent } from '../../agent/agent';
import type { AgentEvent } from '../../agent/agentEvents';
import type { AgentResponse } from '../../agent/agentTypes';
import type { LlmSettings } from '../../model/llmConfig';
import { previewText } from '../../common/inputLimits';
import { escapeInvisibleJson } from '../../common/invisibleText';
import { err, out, EXIT, type CliIo } from '../../common/cliIo';
import { modelSettings, withModelOptions, type ModelOptions } from './modelOptions';

export interface AskOptions extends ModelOptions {
  json?: boolean;
  maxIterations?: string;
  yes?: boolean;
  profile?: string;
  stream: boolean;
}

/** A call's input on stderr: enough to follow along, never megabytes. */
const MAX_SHOWN_INPUT_CHARS = 500;

export type AgentFactory = (settings: LlmSettings, options: AskOptions) => Agent;

export function registerAskCommand(program: Command, io: CliIo, createAgent: AgentFactory, setExit: (code: number) => void): void {
  withModelOptions(
    program
      .command('ask')
      .description('run the agent on a request')
      .argument('<request>', 'what you want done, in plain words')
      .option('--json', 'print a JSON summary at the end instead of streaming'),
  )
    .option('--max-iterations <n>', 'model turns at most (default 10)')
    .option('-y, --yes', 'approve every action without asking')
    .option('--profile <profile>', 'tool profile: read-only, standard or full')
    .option('--no-stream', 'wait for whole model replies')
    .action(async (request: string, options: AskOptions) => {
      const agent = createAgent(modelSettings(options), options);
      setExit(await ask(io, agent, request, options));
    });
}

async function ask(io: CliIo, agent: Agent, request: string, options: AskOptions): Promise<number> {
  let interrupts = 0;
  const onSigint = (): void => {
    if (++interrupts > 1) process.exit(EXIT.cancelled);
    err(io, '\nCancelling… (Ctrl+C again to quit at once)\n');
    agent.cancel();
  };
  process.on('SIGINT', onSigint);
  try {
    let response: AgentResponse | undefined;
    if (options.stream) {
      for await (const event of agent.streamRequest(request)) {
        if (!options.json) render(io, event);
        if (event.type === 'done') {
          response = event.response;
          if (!options.json && response.note) out(io, `\n\n${response.note}`);
        }
      }
    } else {
      const off = options.json ? () => {} : agent.onEvent((event) => render(io, event));
      try {
        response = await agent.processRequest(request);
        if (!options.json) out(io, response.message);
      } finally {
        off();
      }
    }
    if (!response) return EXIT.failed;
    if (options.json) out(io, JSON.stringify(summary(response), null, 2) + '\n');
    else err(io, `\n[${response.iterations} iteration(s) · ${response.usage.inputTokens} in / ${response.usage.outputTokens} out tokens · ${response.stopReason}]\n`);
    if (response.stopReason === 'cancelled') return EXIT.cancelled;
    return response.stopReason === 'end_turn' ? EXIT.ok : EXIT.stopped;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

function render(io: CliIo, event: AgentEvent): void {
  switch (event.type) {
    case 'text_delta':
      out(io, event.text);
      break;
    case 'tool_started':
      err(io, `\n→ ${event.call.name} ${escapeInvisibleJson(previewText(event.call.input, MAX_SHOWN_INPUT_CHARS))}\n`);
      break;
    case 'tool_finished': {
      const r = event.result;
      const mark = r.success ? '✓' : `✗ ${r.code}`;
      err(io, `  ${mark} ${r.observation} (${r.durationMs.toFixed(0)} ms)\n`);
      break;
    }
    case 'recovery':
      if (event.decision.action === 'retry') err(io, `  ↻ retrying in ${event.decision.delayMs} ms\n`);
      break;
    default:
      break;
  }
}

function summary(response: AgentResponse): unknown {
  return {
    message: response.message,
    stopReason: response.stopReason,
    iterations: response.iterations,
    usage: response.usage,
    toolCalls: response.toolCalls.map(({ call, result }) => ({
      id: call.id,
      name: call.name,
      input: call.input,
      result: { ...result, images: result.images?.map((i) => ({ mediaType: i.source.mediaType, bytes: i.source.data.length })) },
    })),
  };
}
