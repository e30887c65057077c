/** What one locate() went through: for benches and tests (which path answered, how much was read). */
export interface LocateTrace {
  steps: Array<'tree-active' | 'pixels-active' | 'tree-all' | 'ocr-active' | 'ocr-window' | 'ocr-screen'>;
  /** What the steps found out along the way, in words (the active window's pixel check). */
  notes: string[];
  /** Window readings that ran OCR (not served from the per-window cache). */
  ocrRuns: number;
  /** When each step began, in ms since locate() began (the scene read comes before the first). */
  startedAt: number[];
}

export class Trace implements LocateTrace {
  readonly steps: LocateTrace['steps'] = [];
  readonly startedAt: number[] = [];
  readonly notes: string[] = [];
  ocrRuns = 0;
  constructor(private readonly began: number) {}
  step(step: LocateTrace['steps'][number]): void {
    this.steps.push(step);
    this.startedAt.push(Math.round(performance.now() - this.began));
  }
  note(words: string): void {
    this.notes.push(words);
  }
}
