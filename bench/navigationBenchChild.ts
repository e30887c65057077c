// Runs inside the bench's private display (started by navigationBench.ts). The pages app, the
// real OCR and tools, the real SDK against a scripted model that answers at once: learning time
// here is GAI's own (a real model adds its latency to each of the learning run's calls).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NAVIGATION_PROMPT } from '../src/brain/navigationLearner';
import { openNavigationBrain } from '../src/brain/navigationSetup';
import { createPlatformDesktop } from '../src/desktop/adapters/platformDesktop';
import { createDesktopServices } from '../src/desktop/desktopServices';
import { resolveLlmConfig } from '../src/llm/llmConfig';
import { LlmManager } from '../src/llm/llmManager';
import { createModeProviders } from '../src/llm/providers/providerFactory';
import { NullLogger } from '../src/logging/logger';
import { createDesktopTools } from '../src/tools/desktop/desktopTools';
import { ToolRegistry } from '../src/tools/toolRegistry';
import { ToolRuntime } from '../src/tools/toolRuntime';
import { startPagesApp, type PagesApp } from '../test/support/pagesFixture';
import { ScriptedMessagesServer } from '../test/support/scriptedMessagesServer';
import { toolReply } from '../test/support/scriptedSteps';
import { median, type BenchRow } from './benchReport';

const RUNS = 5;
const TARGET = 'Advanced network';

/** The app's own reaction in a run: from each button press to the page it opened being drawn. */
function appReactionMs(app: PagesApp, fromEvent: number): number {
  const events = app.events().slice(fromEvent) as Array<{ event: string; t?: number }>;
  let total = 0;
  let pressedAt: number | undefined;
  for (const e of events) {
    if (e.event === 'press') pressedAt = e.t;
    else if (e.event === 'page' && pressedAt !== undefined && e.t !== undefined) {
      total += (e.t - pressedAt) * 1000;
      pressedAt = undefined;
    }
  }
  return total;
}

async function main(): Promise<void> {
  const services = createDesktopServices(createPlatformDesktop({ env: process.env }));
  const registry = new ToolRegistry();
  for (const tool of createDesktopTools(services)) registry.register(tool);
  const runtime = new ToolRuntime(registry, { autoApprove: ['read', 'action', 'system'] });
  const server = await ScriptedMessagesServer.start();
  const dir = mkdtempSync(join(tmpdir(), 'gai-nav-bench-'));
  const app = await startPagesApp({ env: process.env });
  try {
    const { brain } = await openNavigationBrain({
      dir,
      services,
      hostRuntime: runtime,
      createLlm: () => new LlmManager(createModeProviders(resolveLlmConfig({ provider: 'anthropic', baseUrl: server.baseUrl, apiKey: 'bench' }, {})), { system: NAVIGATION_PROMPT }),
      logger: new NullLogger(),
    });
    await brain.identifyCurrentNode(); // OCR worker start-up is not part of any figure below
    const identify: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await brain.identifyCurrentNode();
      identify.push(performance.now() - t);
    }

    const click = (text: string) => toolReply([{ name: 'click', input: { text } }]);
    server.push(click('Settings'), click('Network'), click('Advanced'), toolReply([{ name: 'finish_navigation', input: { success: true, summary: 'Advanced network' } }]));
    let mark = app.events().length;
    const learned = await brain.navigateTo(TARGET);
    if (!learned.success || learned.how !== 'learned') throw new Error(`learning failed: ${learned.message}`);
    const learnReaction = appReactionMs(app, mark);
    const requestsAfterLearning = server.requestCount;

    const replays: number[] = [];
    const beyond: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await app.control('goto home');
      mark = app.events().length;
      const report = await brain.navigateTo(TARGET);
      if (report.how !== 'replayed') throw new Error(`replay ${i} did not replay: ${report.message}`);
      replays.push(report.durationMs);
      beyond.push(report.durationMs - appReactionMs(app, mark));
    }
    const replayCalls = server.requestCount - requestsAfterLearning;
    const rows: BenchRow[] = [
      { name: 'brain: identify the current screen (warm OCR, no model)', value: median(identify), unit: 'ms' },
      { name: `brain: learn "${TARGET}" (3 steps, scripted model answering at once)`, value: learned.durationMs, unit: 'ms', note: `${learned.modelCalls} model calls; a real model adds its latency to each` },
      { name: 'brain: replay the same 3-step path (median of 5)', value: median(replays), unit: 'ms', note: `${replayCalls} model calls in ${RUNS} replays` },
      {
        name: 'brain: replay beyond the app’s own reaction time',
        value: median(beyond),
        unit: 'ms',
        goal: '< 1500',
        met: median(beyond) < 1500,
        note: `app reaction while learning ${learnReaction.toFixed(0)} ms`,
      },
      { name: 'brain: model calls per navigation, learning / replay', value: learned.modelCalls, unit: 'calls', note: `replay: ${replayCalls / RUNS}` },
    ];
    process.stdout.write(`BENCH_ROWS ${JSON.stringify(rows)}\n`);
  } finally {
    await app.stop();
    await server.close();
    await services.desktop.ocr.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
