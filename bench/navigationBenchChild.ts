// Runs inside the bench's private display (started by navigationBench.ts), twice: the pages app
// alone, then beside mousepad showing code (a busier 1920x1080 screen). The pages app, the
// real OCR and tools, the real SDK against a scripted model that answers at once: learning time
// here is GAI's own (a real model adds its latency to each of the learning run's calls).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NAVIGATION_PROMPT } from '../src/navigation/learning/navigationLearner';
import { openNavigationBrain } from '../src/app/navigationAssembly';
import { createPlatformDesktop } from '../src/platform/platformDesktop';
import { createDesktopServices, type DesktopServices } from '../src/desktop/desktopServices';
import { resolveLlmConfig } from '../src/model/llmConfig';
import { LlmManager } from '../src/model/llmManager';
import { createModeProviders } from '../src/model/providers/providerFactory';
import { NullLogger } from '../src/common/logger';
import { createDesktopTools } from '../src/tools/desktop/desktopTools';
import { ToolRegistry } from '../src/tools/toolRegistry';
import { ToolRuntime } from '../src/runtime/toolRuntime';
import { AtspiApp } from '../test/desktop/support/realApps/atspiApps';
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

interface Split {
  settle: number[];
  verify: number[];
  act: number[];
}

/** Replays a learned 3-step path RUNS times; `label` names the scene in the rows. */
async function scene(label: string, services: DesktopServices, runtime: ToolRuntime, server: ScriptedMessagesServer, ocrCalls: () => number, beside?: () => Promise<{ stop(): Promise<void> }>): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gai-nav-bench-'));
  // The other window first, so the pages app opens on top of it, active.
  const other = beside ? await beside() : undefined;
  const app = await startPagesApp({ env: process.env });
  services.reader.reset();
  try {
    const { brain } = await openNavigationBrain({
      dir,
      services,
      hostRuntime: runtime,
      tools: (models) => createDesktopTools(services, { models }),
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
    const ends: number[] = [];
    const ocrPasses: number[] = [];
    const split: Split = { settle: [], verify: [], act: [] };
    for (let i = 0; i < RUNS; i++) {
      await app.control('goto home');
      mark = app.events().length;
      const ocrBefore = ocrCalls();
      let stepsMs = 0;
      const report = await brain.navigateTo(TARGET, {
        onStep: (step) => {
          stepsMs += step.durationMs;
          split.settle.push(step.timing.settleMs);
          split.verify.push(step.timing.verifyMs);
          split.act.push(step.timing.actMs);
        },
      });
      if (report.how !== 'replayed') throw new Error(`replay ${i} did not replay: ${report.message} (${JSON.stringify(report.replayFailure)})`);
      replays.push(report.durationMs);
      beyond.push(report.durationMs - appReactionMs(app, mark));
      ends.push(report.durationMs - stepsMs);
      ocrPasses.push(ocrCalls() - ocrBefore);
    }
    const replayCalls = server.requestCount - requestsAfterLearning;
    const perStep = `per step (median of ${split.act.length}): click ${median(split.act).toFixed(0)} ms, settle ${median(split.settle).toFixed(0)} ms, verify ${median(split.verify).toFixed(0)} ms`;
    return [
      { name: `brain ${label}: identify the current screen (warm, no model)`, value: median(identify), unit: 'ms' },
      { name: `brain ${label}: learn "${TARGET}" (3 steps, scripted model answering at once)`, value: learned.durationMs, unit: 'ms', note: `${learned.modelCalls} model calls; a real model adds its latency to each` },
      { name: `brain ${label}: replay the same 3-step path (median of ${RUNS})`, value: median(replays), unit: 'ms', goal: '< 2000', met: median(replays) < 2000, note: `${replayCalls} model calls in ${RUNS} replays; runs ${replays.map((r) => r.toFixed(0)).join(', ')}` },
      { name: `brain ${label}: replay, where the time goes`, value: median(ends), unit: 'ms', note: `identification at both ends and bookkeeping; ${perStep}` },
      { name: `brain ${label}: OCR passes per replay (median)`, value: median(ocrPasses), unit: 'calls', note: `runs ${ocrPasses.join(', ')} (the clicks read the screen; verified steps need none when the signature matches)` },
      {
        name: `brain ${label}: replay beyond the app’s own reaction time`,
        value: median(beyond),
        unit: 'ms',
        goal: '< 1500',
        met: median(beyond) < 1500,
        note: `app reaction while learning ${learnReaction.toFixed(0)} ms`,
      },
    ];
  } finally {
    await app.stop();
    await other?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const desktop = createPlatformDesktop({ env: process.env });
  // Counts OCR passes (the reader's and the click's), to show which checks needed none.
  let recognized = 0;
  const recognize = desktop.ocr.recognize.bind(desktop.ocr);
  desktop.ocr.recognize = (image, options) => {
    recognized++;
    return recognize(image, options);
  };
  const services = createDesktopServices(desktop);
  const registry = new ToolRegistry();
  for (const tool of createDesktopTools(services)) registry.register(tool);
  const runtime = new ToolRuntime(registry, { autoApprove: ['read', 'action', 'system'] });
  const server = await ScriptedMessagesServer.start();
  try {
    const rows = await scene('quiet', services, runtime, server, () => recognized);
    // A busier screen: mousepad with code beside the pages app (1920x1080).
    rows.push(...(await scene('beside mousepad', services, runtime, server, () => recognized, () => AtspiApp.start('mousepad', process.env, { x: 960, y: 0, width: 960, height: 1000 }))));
    process.stdout.write(`BENCH_ROWS ${JSON.stringify(rows)}\n`);
  } finally {
    await server.close();
    await services.desktop.ocr.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
