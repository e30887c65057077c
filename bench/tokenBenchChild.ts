// Runs inside the bench's private display (started by tokenBench.ts): the same 5-step task on the
// Tk fixture in each computer-use mode, the real agent, runtime, tools and SDK against a scripted
// Claude that answers at once. The input tokens are estimated from the exact request bodies the
// server received (bench/tokenCount.ts); the fixture's own log proves each step happened.
import { Agent } from '../src/agent/agent';
import { DEFAULT_SYSTEM_PROMPT } from '../src/agent/systemPrompt';
import type { ComputerUseMode } from '../src/model/modelConfig';
import { createPlatformDesktop } from '../src/platform/platformDesktop';
import { createDesktopServices } from '../src/desktop/desktopServices';
import { LlmManager } from '../src/model/llmManager';
import { computerToolFor } from '../src/model/providers/anthropicComputerModels';
import { AnthropicProvider } from '../src/model/providers/anthropicProvider';
import { ComputerDisplay, toImagePoint, type DisplayGeometry } from '../src/tools/desktop/computer/computerDisplay';
import { createDesktopTools } from '../src/tools/desktop/desktopTools';
import { ToolPolicy } from '../src/runtime/toolPolicy';
import { ToolRegistry } from '../src/tools/toolRegistry';
import { ToolRuntime } from '../src/runtime/toolRuntime';
import { launchFixture, type Fixture, type WidgetGeometry } from '../test/desktop/support/fixture';
import { ScriptedMessagesServer } from '../test/support/scriptedMessagesServer';
import { textReply, toolReply, type ScriptedToolUse } from '../test/support/scriptedSteps';
import { median, type BenchRow } from './benchReport';
import { countConversation, type RequestTokens } from './tokenCount';

const STEPS = 5;
const NAME = 'Ada Lovelace';
const EMAIL = 'ada@example.com';
const TASK = `Enter the name "${NAME}", click Save, enter the email "${EMAIL}", click Apply, and tell me what the status line says.`;

/** What a mode's script needs to aim: the fixture's widgets, in screen and in screenshot pixels. */
interface Aim {
  /** A native computer call: a toolset member (Claude 5) or the single tool's action. */
  computer(action: string, input?: Record<string, unknown>): ScriptedToolUse;
  /** A widget's centre in the screenshot's pixels (the native tool's coordinates). */
  image(widget: string): [number, number];
  /** A widget's centre in screen pixels (GAI's click). */
  screen(widget: string): { x: number; y: number };
  /** The status line with a margin, in screenshot pixels ([x0, y0, x1, y1]) and in screen pixels. */
  statusImage(): [number, number, number, number];
  statusScreen(): { x: number; y: number; width: number; height: number };
}

interface Mode {
  name: string;
  model: string;
  computerUse: ComputerUseMode;
  /**
   * The reference loop keeps every screenshot in a task this short (its truncation, when on,
   * removes them in chunks of 10) and has no history budget; GAI's defaults would drop some.
   */
  keepEverything?: boolean;
  note: string;
  /** The model's turns, each a batch of calls; a final text answer follows. */
  turns(aim: Aim): ScriptedToolUse[][];
}

const gaiClick = (text: string): ScriptedToolUse => ({ name: 'click', input: { text } });

const MODES: Mode[] = [];
for (const model of ['claude-sonnet-4-6', 'claude-opus-5-5']) {
  MODES.push(
    {
      name: `native ${model}`,
      model,
      computerUse: 'native',
      note: 'screenshot with each step, acts by coordinates',
      turns: (a) => [
        [a.computer('screenshot')],
        [a.computer('left_click', { coordinate: a.image('name_entry') }), a.computer('type', { text: NAME }), a.computer('screenshot')],
        [a.computer('left_click', { coordinate: a.image('save_button') }), a.computer('screenshot')],
        [a.computer('left_click', { coordinate: a.image('email_entry') }), a.computer('type', { text: EMAIL }), a.computer('screenshot')],
        [a.computer('left_click', { coordinate: a.image('apply_button') }), a.computer('screenshot')],
        [a.computer('zoom', { region: a.statusImage() })],
      ],
    },
    {
      name: `reference ${model}`,
      model,
      computerUse: 'native',
      keepEverything: true,
      note: 'a screenshot after every action, one action a turn',
      turns: (a) => [
        [a.computer('screenshot')],
        [a.computer('left_click', { coordinate: a.image('name_entry') }), a.computer('screenshot')],
        [a.computer('type', { text: NAME }), a.computer('screenshot')],
        [a.computer('left_click', { coordinate: a.image('save_button') }), a.computer('screenshot')],
        [a.computer('left_click', { coordinate: a.image('email_entry') }), a.computer('screenshot')],
        [a.computer('type', { text: EMAIL }), a.computer('screenshot')],
        [a.computer('left_click', { coordinate: a.image('apply_button') }), a.computer('screenshot')],
        [a.computer('zoom', { region: a.statusImage() })],
      ],
    },
    {
      name: `mixed ${model}`,
      model,
      computerUse: 'native',
      note: 'one screenshot; labels clicked by text, the status read by OCR',
      turns: (a) => [
        [a.computer('screenshot')],
        [a.computer('left_click', { coordinate: a.image('name_entry') }), a.computer('type', { text: NAME })],
        [gaiClick('Save')],
        [a.computer('left_click', { coordinate: a.image('email_entry') }), a.computer('type', { text: EMAIL })],
        [gaiClick('Apply')],
        [{ name: 'ocr', input: { region: a.statusScreen() } }],
      ],
    },
  );
}
MODES.push({
  name: 'gai-tools (any model)',
  model: 'claude-sonnet-4-6',
  computerUse: 'gai-tools',
  note: 'no screenshot: OCR of the screen, clicks by text, type_text',
  turns: (a) => [
    [{ name: 'ocr', input: { captureScreen: true } }],
    [{ name: 'click', input: a.screen('name_entry') }, { name: 'type_text', input: { text: NAME } }],
    [gaiClick('Save')],
    [{ name: 'click', input: a.screen('email_entry') }, { name: 'type_text', input: { text: EMAIL } }],
    [gaiClick('Apply')],
    [{ name: 'ocr', input: { region: a.statusScreen() } }],
  ],
});

function centre(w: WidgetGeometry): { x: number; y: number } {
  return { x: Math.round(w.x + w.width / 2), y: Math.round(w.y + w.height / 2) };
}

function aimFor(fixture: Fixture, toolset: boolean, geometry: () => DisplayGeometry): Aim {
  const status = (): WidgetGeometry => fixture.widget('status_label');
  const statusScreen = (): { x: number; y: number; width: number; height: number } => {
    const s = status();
    return { x: Math.max(0, s.x - 8), y: Math.max(0, s.y - 6), width: s.width + 160, height: s.height + 12 };
  };
  return {
    computer: (action, input = {}) => (toolset ? { name: action, input, toolsetName: 'computer' } : { name: 'computer', input: { action, ...input } }),
    image: (widget) => {
      const p = toImagePoint(centre(fixture.widget(widget)), geometry());
      return [p.x, p.y];
    },
    screen: (widget) => centre(fixture.widget(widget)),
    statusImage: () => {
      const r = statusScreen();
      const from = toImagePoint({ x: r.x, y: r.y }, geometry());
      const to = toImagePoint({ x: r.x + r.width, y: r.y + r.height }, geometry());
      return [from.x, from.y, to.x, to.y];
    },
    statusScreen,
  };
}

/** Throws unless the fixture logged the four actions, in order, with the right text. */
function verifyLog(fixture: Fixture, mode: string): void {
  const events = fixture.events();
  const at = (what: string, match: (e: (typeof events)[number]) => boolean): number => {
    const index = events.findIndex(match);
    if (index < 0) throw new Error(`${mode}: the fixture never logged ${what}; it logged ${events.map((e) => e.event).join(', ')}`);
    return index;
  };
  const order = [
    at(`the name "${NAME}"`, (e) => e.event === 'text' && e.widget === 'name_entry' && e.value === NAME),
    at('a click on Save', (e) => e.event === 'click' && e.widget === 'save_button'),
    at(`the email "${EMAIL}"`, (e) => e.event === 'text' && e.widget === 'email_entry' && e.value === EMAIL),
    at('a click on Apply', (e) => e.event === 'click' && e.widget === 'apply_button'),
  ];
  if (order.some((index, i) => i > 0 && index < order[i - 1]!)) throw new Error(`${mode}: the fixture logged the steps out of order (${order.join(', ')})`);
  // The entries log no clicks of their own (only buttons do): Save and Apply, nothing else.
  const clicks = events.filter((e) => e.event === 'click').map((e) => String(e.widget));
  if (clicks.join() !== 'save_button,apply_button') throw new Error(`${mode}: button clicks logged: ${clicks.join(', ')}; Save then Apply expected`);
}

type Block = Record<string, unknown>;

/** Step 5 read the status: OCR text saying so, or a zoomed image taken after the Apply click. */
function verifyReading(last: Block, mode: string): void {
  const blocks = (last.messages as Array<{ content: Block[] | string }>).at(-1)?.content;
  const result = Array.isArray(blocks) ? blocks.filter((b) => b.type === 'tool_result').at(-1) : undefined;
  if (!result) throw new Error(`${mode}: the last request answers no tool call`);
  const content = (result?.content as Block[] | undefined) ?? [];
  const text = content.filter((c) => c.type === 'text').map((c) => String(c.text)).join(' ');
  if (result?.is_error) throw new Error(`${mode}: reading the status failed: ${text}`);
  const image = content.some((c) => c.type === 'image');
  if (!image && !/clicked Apply/.test(text)) throw new Error(`${mode}: the status reading did not say "clicked Apply": ${text.slice(0, 300)}`);
}

async function runMode(mode: Mode, services: ReturnType<typeof createDesktopServices>): Promise<BenchRow[]> {
  const fixture = await launchFixture({ env: process.env });
  const screen = new ComputerDisplay(services.desktop.screen);
  const registry = new ToolRegistry();
  for (const tool of createDesktopTools(services, { computerDisplay: screen })) registry.register(tool);
  const runtime = new ToolRuntime(registry, { policy: new ToolPolicy({ profile: 'full' }), autoApprove: ['read', 'action', 'system'] });
  let geometry: DisplayGeometry | undefined;
  const original = screen.geometry.bind(screen);
  screen.geometry = async () => (geometry = await original());
  const toolset = mode.computerUse !== 'gai-tools' && computerToolFor(mode.model) === 'computer_toolset_20260801';
  const aim = aimFor(fixture, toolset, () => {
    if (!geometry) throw new Error(`${mode.name}: the model aimed before the agent sized the screenshot`);
    return geometry;
  });
  let turns: ScriptedToolUse[][] | undefined;
  const server = await ScriptedMessagesServer.start((_request, index) => {
    // Built at the first request, after the agent has set the model's image limits on the display.
    turns ??= mode.turns(aim);
    const calls = turns[index];
    return calls ? toolReply(calls) : textReply('The status line says "Status: clicked Apply".');
  });
  try {
    const provider = new AnthropicProvider({ provider: 'anthropic', model: mode.model, apiKey: 'bench', baseUrl: server.baseUrl, maxRetries: 0, computerUse: mode.computerUse });
    const keep = mode.keepEverything ? { keepScreenshots: 50, maxHistoryChars: 100_000_000 } : {};
    const llm = new LlmManager({ default: provider }, { system: DEFAULT_SYSTEM_PROMPT });
    const agent = new Agent(llm, runtime, { maxIterations: 12, ...keep });
    const started = performance.now();
    const response = await agent.processRequest(TASK);
    const wallMs = performance.now() - started - server.serverTimeMs;
    const failed = response.toolCalls.filter((c) => !c.result.success);
    if (failed.length) throw new Error(`${mode.name}: ${failed.map((c) => `${c.call.name}: ${c.result.observation}`).join('; ')}`);
    if (response.message !== 'The status line says "Status: clicked Apply".') throw new Error(`${mode.name}: the run ended early: ${response.message}`);
    await fixture.waitFor((e) => e.event === 'click' && e.widget === 'apply_button');
    verifyLog(fixture, mode.name);
    const bodies = server.requests.map((r) => r.body);
    verifyReading(bodies.at(-1)!, mode.name);
    return rows(mode, countConversation(bodies), wallMs, geometry);
  } finally {
    await server.close();
    await fixture.close();
  }
}

function rows(mode: Mode, counts: RequestTokens[], wallMs: number, geometry: DisplayGeometry | undefined): BenchRow[] {
  const sum = (pick: (c: RequestTokens) => number): number => counts.reduce((total, c) => total + pick(c), 0);
  const fresh = sum((c) => c.fresh);
  const adjusted = sum((c) => c.cacheAdjusted);
  // Each image once: a request resends the history's images, counted in its tokens above.
  const last = counts.at(-1)?.images ?? [];
  const sizes = [...new Set(last.map((i) => `${i.width}x${i.height}`))].join(', ') || 'none';
  const tool = mode.computerUse === 'gai-tools' ? 'GAI tools' : `${computerToolFor(mode.model) ?? '?'}, screenshots ${geometry ? `${geometry.image.width}x${geometry.image.height}` : '?'}`;
  return [
    {
      name: `tokens ${mode.name}: input tokens per step, billed as fresh`,
      value: fresh / STEPS,
      unit: 'tokens',
      note: `${mode.note}; ${counts.length} requests, median ${median(counts.map((c) => c.fresh)).toFixed(0)} a request, ${fresh} in all`,
    },
    {
      name: `tokens ${mode.name}: input tokens per step, prompt-cache adjusted`,
      value: adjusted / STEPS,
      unit: 'tokens',
      note: `reads 0.1x (${sum((c) => c.cacheRead)}), writes 1.25x (${sum((c) => c.cacheWrite)}); median ${median(counts.map((c) => c.cacheAdjusted)).toFixed(0)} a request`,
    },
    {
      name: `tokens ${mode.name}: GAI's wall time for the 5 steps`,
      value: wallMs,
      unit: 'ms',
      note: `${tool}; images in the last request: ${last.length} (${sizes})`,
    },
  ];
}

async function main(): Promise<void> {
  const services = createDesktopServices(createPlatformDesktop({ env: process.env }));
  try {
    // A run not measured first: the OCR worker's start and the first capture and typing are no mode's cost.
    await runMode(MODES.find((m) => m.name.startsWith('mixed'))!, services);
    const rows: BenchRow[] = [];
    for (const mode of MODES) rows.push(...(await runMode(mode, services)));
    process.stdout.write(`BENCH_ROWS ${JSON.stringify(rows)}\n`);
  } finally {
    await services.desktop.ocr.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
