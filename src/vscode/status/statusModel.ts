// What the status-bar item says, without VS Code: the free line (active window, last action)
// on every refresh, the model's summary only when asked. Nothing is cached across a failure:
// the next refresh asks the desktop again (an OCR worker that died is started anew by its
// pool), so one bad reading does not leave "screen not read" standing.
import { errorMessage } from '../../common/errors';
import type { ToolResult } from '../../tools/toolTypes';
import { freeStatus, statusSummary, type LastAction, type StatusSummary } from './statusSummary';

export interface StatusSource {
  /** The active window's title (the windows port; no OCR, no model). */
  activeWindow(): Promise<string | undefined>;
  lastAction(): LastAction | undefined;
  /** A quick smart_screen_reader run: the fast model's summary when one is configured. */
  summarize(): Promise<ToolResult>;
}

export type StatusKind = 'free' | 'model' | 'failed';

export class StatusModel {
  private shown?: StatusSummary;
  private kindShown: StatusKind = 'free';
  private window?: string;

  constructor(
    private readonly source: StatusSource,
    private readonly now: () => number = Date.now,
  ) {}

  get current(): StatusSummary | undefined {
    return this.shown;
  }

  get kind(): StatusKind {
    return this.kindShown;
  }

  /** The free line; the window the last action left is remembered with it. */
  async refresh(): Promise<StatusSummary> {
    try {
      const window = await this.source.activeWindow();
      this.window = window;
      const last = this.source.lastAction();
      if (last && last.window === undefined && window !== undefined) last.window = window;
      return this.show(freeStatus(window, last, this.now()), 'free');
    } catch (error) {
      return this.show({ text: 'window not read', tooltip: `The active window could not be read: ${errorMessage(error)}. The next refresh tries again.` }, 'failed');
    }
  }

  /** The free line again with the window last read, so "5 s ago" moves on without asking the desktop. */
  retime(): StatusSummary | undefined {
    if (this.kindShown !== 'free' || !this.shown) return this.shown;
    return this.show(freeStatus(this.window, this.source.lastAction(), this.now()), 'free');
  }

  /** The model's summary (this one spends tokens). */
  async summarize(): Promise<StatusSummary> {
    try {
      const result = await this.source.summarize();
      const summary = statusSummary(result);
      if (!result.success) return this.show({ ...summary, tooltip: `${summary.tooltip}\nThe next refresh tries again.` }, 'failed');
      return this.show(summary, 'model');
    } catch (error) {
      return this.show({ text: 'screen not read', tooltip: `${errorMessage(error)}\nThe next refresh tries again.` }, 'failed');
    }
  }

  private show(summary: StatusSummary, kind: StatusKind): StatusSummary {
    this.shown = summary;
    this.kindShown = kind;
    return summary;
  }
}
