import type { BBox } from '../../common/geometry';
import type {
  AccessibilityPort, AccessibilityQueryOptions, AccessibleElement, ElementAction, FocusedElement,
} from '../../desktop/ports/accessibilityPort';
import type { PhysicalPixels } from './physicalPixels';
import { scaleBox } from './physicalPixels';
import type { UiaHelper } from './uiaHelper';
import { uiaRole } from './uiaRoles';

// Windows' accessibility tree through UI Automation (the helper walks the control view of the
// foreground window in one cached call). Roles come as AT-SPI's words (uiaRoles.ts), so the
// grounding, privacy and recording rules read a Windows tree like a Linux one.

const ELEMENTS_TIMEOUT_MS = 10_000; // a browser's tree is thousands of elements
/** Roles worth returning without a name (an empty text field, an unlabelled button). */
const UNNAMED_ROLES = new Set(['push button', 'toggle button', 'text', 'password text', 'document text', 'check box', 'radio button', 'combo box', 'menu item', 'check menu item', 'list item', 'page tab', 'link', 'slider', 'spin button']);

interface RawElement {
  name?: unknown;
  controlType?: unknown;
  x?: unknown;
  y?: unknown;
  width?: unknown;
  height?: unknown;
  states?: unknown;
  password?: unknown;
  toggles?: unknown;
  pid?: unknown;
  app?: unknown;
  window?: { name?: unknown; role?: unknown; active?: unknown } | null;
  ancestors?: unknown;
  ref?: unknown;
  text?: unknown;
  textCut?: unknown;
}

export class UiaAccessibility implements AccessibilityPort {
  readonly name = 'UI Automation';
  private availability: Promise<boolean> | undefined;

  constructor(
    private readonly helper: UiaHelper,
    private readonly pixels: PhysicalPixels,
    /** Told once when the tree cannot be read here: GAI then clicks by OCR only. */
    private readonly onWarning: (message: string) => void = () => {},
  ) {}

  available(): Promise<boolean> {
    this.availability ??= this.helper.start().then(
      () => true,
      (error: unknown) => {
        this.onWarning(`the accessibility tree cannot be read, so GAI finds targets by OCR only: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      },
    );
    return this.availability;
  }

  async elements(options: AccessibilityQueryOptions & { fresh?: boolean } = {}): Promise<AccessibleElement[]> {
    const answer = await this.helper.request('elements', { activeOnly: options.activeWindowOnly !== false }, { timeoutMs: ELEMENTS_TIMEOUT_MS, signal: options.signal });
    if (!Array.isArray(answer.elements)) throw new Error('the UI Automation helper answered "elements" without a list');
    const factor = await this.pixels.factor();
    return (answer.elements as RawElement[])
      .map((raw) => toElement(raw, factor))
      .filter((e): e is AccessibleElement => e !== undefined && (e.name !== '' || UNNAMED_ROLES.has(e.role)))
      .sort(readingOrder);
  }

  async focusedElement(signal?: AbortSignal): Promise<FocusedElement | undefined> {
    const answer = await this.helper.request('focused', {}, { signal });
    const raw = answer.focused as RawElement | null | undefined;
    if (!raw) return undefined;
    return {
      name: str(raw.name),
      role: uiaRole(str(raw.controlType), { password: raw.password === true }),
      states: strings(raw.states),
    };
  }

  async perform(ref: string, action: ElementAction, signal?: AbortSignal): Promise<string> {
    if (action.kind !== 'press') throw new Error(`UI Automation cannot ${String(action.kind)} an element`);
    const answer = await this.helper.request('perform', { ref, dryRun: action.dryRun === true }, { signal });
    if (typeof answer.action !== 'string') throw new Error('the UI Automation helper did not say which pattern it used');
    return answer.action;
  }
}

function toElement(raw: RawElement, factor: number): AccessibleElement | undefined {
  const box: BBox = { x: num(raw.x), y: num(raw.y), width: num(raw.width), height: num(raw.height) };
  if (box.width <= 0 || box.height <= 0) return undefined;
  const element: AccessibleElement = {
    name: str(raw.name),
    role: uiaRole(str(raw.controlType), { password: raw.password === true, toggles: raw.toggles === true }),
    bbox: scaleBox(box, factor),
    states: strings(raw.states),
  };
  if (typeof raw.text === 'string') {
    element.text = raw.text;
    if (raw.textCut === true) element.textCut = true;
  }
  if (raw.window) element.window = { name: str(raw.window.name), role: str(raw.window.role) || 'frame', active: raw.window.active === true };
  if (Array.isArray(raw.ancestors)) {
    element.ancestors = (raw.ancestors as Array<{ role?: unknown; name?: unknown }>)
      .map((a) => ({ role: uiaRole(str(a.role)), name: str(a.name) }))
      .filter((a) => a.name !== '')
      .slice(-4);
  }
  if (typeof raw.app === 'string' && raw.app) element.app = raw.app;
  if (typeof raw.pid === 'number' && raw.pid > 0) element.pid = raw.pid;
  if (typeof raw.ref === 'string') element.ref = raw.ref;
  return element;
}

/** Rows top to bottom (elements whose tops are within a few pixels share a row), then left to right. */
function readingOrder(a: AccessibleElement, b: AccessibleElement): number {
  if (Math.abs(a.bbox.y - b.bbox.y) > 4) return a.bbox.y - b.bbox.y;
  return a.bbox.x - b.bbox.x;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
}
