// An in-memory desktop for the navigator's tests: a small app of pages whose buttons lead to
// other pages, fake tools that press them, and a fake learner standing in for the model.
import type { PathAction } from '../../../src/navigation/store/brainTypes';
import type { LearnOutcome, LearnRequest, NavigationLearner } from '../../../src/navigation/learning/navigationLearner';
import type { ToolInvocation } from '../../../src/navigation/routes/pathActions';
import type { ToolResult } from '../../../src/tools/toolTypes';
import { createFakeDesktop, makeServices, ocrWords, solidFrame, window, type FakeDesktop } from '../../support/fakeDesktop';

export type Pages = Record<string, { heading: string; lines: string[]; buttons: Record<string, string> }>;

/** A fake app: each page shows a heading, some lines and buttons; a press shows another page. */
export class PagesDesktop {
  readonly fake: FakeDesktop = createFakeDesktop();
  readonly services = makeServices(this.fake);
  page = 'home';
  presses: string[] = [];

  constructor(readonly pages: Pages) {
    this.show('home');
  }

  show(page: string): void {
    const spec = this.pages[page]!;
    this.page = page;
    const words = [{ text: spec.heading, x: 20, y: 20, w: 200, h: 40 }];
    spec.lines.forEach((line, i) => words.push({ text: line, x: 20, y: 80 + i * 30, w: 160, h: 16 }));
    Object.keys(spec.buttons).forEach((label, i) => words.push({ text: label, x: 20, y: 300 + i * 40, w: 120, h: 16 }));
    this.fake.ocr.analysis = ocrWords(words);
    this.fake.windows.active = window(`Pages — ${spec.heading}`);
    // A different picture per page, so the screen reader sees the change.
    const shade = 40 + 20 * Object.keys(this.pages).indexOf(page);
    this.fake.screen.setFrame(solidFrame(800, 600, [shade, shade, shade, 255]));
  }

  /** The tools a replay calls: click by text presses a button of the current page. */
  callTool = async (call: ToolInvocation): Promise<ToolResult> => {
    const text = call.input.text;
    const target = typeof text === 'string' ? this.pages[this.page]!.buttons[text] : undefined;
    if (call.name !== 'click' || target === undefined) {
      return { success: false, code: 'NOT_FOUND', durationMs: 1, observation: `Text "${String(text)}" not found on screen.` };
    }
    this.presses.push(text as string);
    this.show(target);
    return { success: true, durationMs: 1, observation: `Clicked "${String(text)}".`, data: { point: { x: 80, y: 300 } } };
  };
}

/** Stands in for the model: presses the given buttons and says whether it arrived. */
export class ScriptedLearner implements NavigationLearner {
  requests: LearnRequest[] = [];
  constructor(
    private readonly app: PagesDesktop,
    private readonly plans: string[][],
  ) {}

  async learn(request: LearnRequest): Promise<LearnOutcome> {
    this.requests.push(request);
    const plan = this.plans.shift() ?? [];
    const actions: PathAction[] = [];
    for (const text of plan) {
      const result = await this.app.callTool({ name: 'click', input: { text } });
      if (result.success) actions.push({ tool: 'click', input: { text } });
    }
    return { success: true, summary: 'arrived', actions, modelCalls: plan.length + 1, durationMs: 5 };
  }
}

export const PAGES: Pages = {
  home: { heading: 'Home', lines: ['Welcome to Pages'], buttons: { Settings: 'settings' } },
  settings: { heading: 'Settings', lines: ['Choose a section'], buttons: { Network: 'network', Display: 'display', Back: 'home' } },
  network: { heading: 'Network settings', lines: ['Wi-Fi: connected', 'Proxy: none'], buttons: { Back: 'settings' } },
  display: { heading: 'Display', lines: ['Brightness: 80%'], buttons: { 'Network panel': 'network', Back: 'settings' } },
};

