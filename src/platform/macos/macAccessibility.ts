import type { BBox } from '../../common/geometry';
import type {
  AccessibilityPort, AccessibilityQueryOptions, AccessibleElement, ElementAction, FocusedElement,
} from '../../desktop/ports/accessibilityPort';
import type { MacHelper } from './macHelper';
import { macRole, macStates } from './macRoles';
import { toPixels } from './macWindows';

// The Accessibility API's tree of the frontmost app (AXUIElementCreateApplication), walked in the
// helper. Without the Accessibility permission it is unavailable, said once: GAI reads the screen
// by OCR only then.

interface RawElement {
  role: string;
  subrole?: string;
  name: string;
  frame: BBox;
  states: string[];
  ancestors: Array<{ role: string; subrole?: string; name: string }>;
  window?: { name: string; role: string; active: boolean };
  value?: string;
  checked?: number;
  ref: string;
}

const WALK_TIMEOUT_MS = 8_000;

export class MacAccessibility implements AccessibilityPort {
  readonly name = 'macOS Accessibility';
  private availability: Promise<boolean> | undefined;
  private warned = false;

  constructor(
    private readonly helper: MacHelper,
    private readonly scale: () => Promise<number>,
    private readonly onWarning: (message: string) => void = () => {},
  ) {}

  available(): Promise<boolean> {
    this.availability ??= this.helper.request('permissions').then(
      (answer) => {
        if (answer.accessibility === true) return true;
        this.warn('the macOS Accessibility permission is missing, so GAI reads the screen by OCR only (see `gai doctor`)');
        return false;
      },
      (error: unknown) => {
        this.warn(`the macOS accessibility tree cannot be read (${error instanceof Error ? error.message : String(error)}), so GAI reads the screen by OCR only`);
        return false;
      },
    );
    return this.availability;
  }

  async elements(options: AccessibilityQueryOptions & { fresh?: boolean } = {}): Promise<AccessibleElement[]> {
    if (!(await this.available())) return [];
    const [answer, scale] = await Promise.all([
      this.helper.request('elements', { activeOnly: options.activeWindowOnly !== false }, { signal: options.signal, timeoutMs: WALK_TIMEOUT_MS }).catch((error: unknown) => this.unreadable(error)),
      this.scale(),
    ]);
    if (!answer) return [];
    const app = typeof answer.app === 'string' ? answer.app : undefined;
    const pid = typeof answer.pid === 'number' ? answer.pid : undefined;
    const raw = Array.isArray(answer.elements) ? (answer.elements as RawElement[]) : [];
    return raw.map((e) => toElement(e, scale, app, pid));
  }

  async focusedElement(signal?: AbortSignal): Promise<FocusedElement | undefined> {
    if (!(await this.available())) return undefined;
    const answer = await this.helper.request('focused', {}, { signal }).catch((error: unknown) => this.unreadable(error));
    const element = answer?.element as { role: string; subrole?: string; name: string; states: string[] } | null | undefined;
    if (!element) return undefined;
    return { name: element.name, role: macRole(element.role, element.subrole), states: element.states };
  }

  async perform(ref: string, action: ElementAction, signal?: AbortSignal): Promise<string> {
    if (action.kind !== 'press') throw new Error(`no such action: ${String(action.kind)}`);
    const answer = await this.helper.request('perform', { ref, dryRun: action.dryRun === true }, { signal });
    return String(answer.action ?? 'press');
  }

  private unreadable(error: unknown): undefined {
    const message = error instanceof Error ? error.message : String(error);
    if (message.includes('ACCESSIBILITY_DENIED')) {
      this.availability = Promise.resolve(false);
      this.warn('the macOS Accessibility permission was taken back, so GAI reads the screen by OCR only (see `gai doctor`)');
      return undefined;
    }
    if (message === 'cancelled') throw error;
    this.warn(`the macOS accessibility tree could not be read (${message}); GAI reads the screen by OCR`);
    return undefined;
  }

  private warn(message: string): void {
    if (this.warned) return;
    this.warned = true;
    this.onWarning(message);
  }
}

function toElement(e: RawElement, scale: number, app: string | undefined, pid: number | undefined): AccessibleElement {
  const role = macRole(e.role, e.subrole);
  const secret = role === 'password text';
  const ancestors = e.ancestors.slice(-4).map((a) => ({ role: macRole(a.role, a.subrole), name: a.name }));
  return {
    // A static text's words are its AXValue (AT-SPI names a label by its text).
    name: e.name || (role === 'label' && e.value ? e.value.slice(0, 200) : ''),
    role,
    bbox: toPixels(e.frame, scale),
    states: macStates(role, e.states, e.checked),
    ...(e.value !== undefined && !secret ? { text: e.value, ...(e.value.length >= 2000 ? { textCut: true } : {}) } : {}),
    ...(e.window ? { window: { name: e.window.name, role: windowRole(e.window.role), active: e.window.active } } : {}),
    ...(ancestors.length > 0 ? { ancestors } : {}),
    ...(app ? { app } : {}),
    ...(pid !== undefined ? { pid } : {}),
    ref: e.ref,
  };
}

/** AXStandardWindow → `frame`, AXDialog → `dialog`, an open context menu → `menu`. */
function windowRole(role: string): string {
  if (role === 'AXDialog' || role === 'AXSystemDialog') return 'dialog';
  if (role === 'AXMenu') return 'menu';
  return 'frame';
}
