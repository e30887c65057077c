import { execFile, type ExecFileException } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { BBox } from '../../core/types';
import type { AccessibilityPort, AccessibilityQueryOptions, AccessibleElement, FocusedElement } from '../ports/accessibilityPort';

// Linux accessibility through AT-SPI, read by Debian's python3-gi + gir1.2-atspi-2.0 in a short
// python3 run (no native Node module; the script is inlined so the esbuild bundle needs no extra
// file). GTK3 apps register with AT-SPI by themselves: on a display without a session bus, GLib
// autolaunches one tied to that X display and the a11y bus launcher publishes its address on the
// root window (AT_SPI_BUS), which this script then finds through DISPLAY alone.

export interface AtspiOptions {
  /** Bound on one elements() call; default 5 s. */
  timeoutMs?: number;
  /** Bound on the first available() check, which may start the session and a11y buses; default 8 s. */
  probeTimeoutMs?: number;
  /** Caps so huge trees (long lists, documents) stay fast; defaults 60 levels, 4000 nodes. */
  maxDepth?: number;
  maxNodes?: number;
  /** Overrides the interpreter (default /usr/bin/python3 when present, else python3 on PATH). */
  python?: string;
}

interface ScriptElement {
  name: string;
  role: string;
  box: [number, number, number, number];
  states: string[];
  text?: string;
}

interface ScriptResult {
  ok: boolean;
  error?: string;
  apps?: number;
  elements?: ScriptElement[];
  visited?: number;
  truncated?: boolean;
  focused?: { name: string; role: string; states: string[] } | null;
}

const SCRIPT = String.raw`
import json, sys, time

USEFUL = {'push button', 'toggle button', 'check box', 'radio button', 'menu item', 'check menu item',
    'radio menu item', 'menu', 'label', 'text', 'entry', 'password text', 'spin button', 'combo box',
    'list item', 'page tab', 'link', 'table cell', 'tree item', 'heading', 'static'}
# Named containers are left out: a window's title or a panel's name is no place to click.
CONTAINERS = {'application', 'frame', 'window', 'dialog', 'alert', 'file chooser', 'filler', 'panel',
    'scroll pane', 'viewport', 'layered pane', 'root pane', 'split pane', 'glass pane', 'internal frame',
    'desktop frame', 'option pane', 'page tab list', 'menu bar', 'tool bar', 'status bar', 'scroll bar',
    'separator', 'table', 'tree table', 'list', 'list box', 'tree', 'document frame', 'document web',
    'section', 'form', 'grouping', 'redundant object', 'unknown', 'invalid'}
# A label without a name shows nothing to find (GTK keeps empty ones as spacers).
BARE_LABELS = {'label', 'static', 'heading'}
POPUPS = {'window', 'menu', 'popup menu', 'tool tip'}
# Their children (rows, cells) come in order, so a long one is read from the first row showing
# to the last.
LISTS = {'list', 'list box', 'table', 'tree', 'tree table'}
# What lies outside these is scrolled away or cut off.
CLIPPING = {'viewport', 'scroll pane'}
LIST_GAP = 3
TEXT_ROLES = {'text', 'entry', 'terminal', 'paragraph', 'spin button', 'combo box'}
MAX_CHILDREN = 500
MAX_TEXT = 500

def main():
    mode, active_only = sys.argv[1], sys.argv[2] == '1'
    max_depth, max_nodes, budget = int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
    try:
        import gi
        gi.require_version('Atspi', '2.0')
        from gi.repository import Atspi
    except Exception as e:
        return {'ok': False, 'error': 'python3 cannot import gi.repository.Atspi 2.0 (%s)' % e}
    desktop = Atspi.get_desktop(0)
    apps = [desktop.get_child_at_index(i) for i in range(desktop.get_child_count())]
    if mode == 'probe':
        return {'ok': True, 'apps': len(apps)}
    if mode == 'focused':
        return {'ok': True, 'focused': focused_in_active(Atspi, apps, max_nodes, time.monotonic() + budget)}
    SHOWING, VISIBLE, ACTIVE = Atspi.StateType.SHOWING, Atspi.StateType.VISIBLE, Atspi.StateType.ACTIVE
    SCREEN = Atspi.CoordType.SCREEN
    deadline = time.monotonic() + budget
    out, state = [], {'visited': 0, 'truncated': False}

    def toplevels(app):
        result = []
        try:
            for i in range(app.get_child_count()):
                top = app.get_child_at_index(i)
                if top is not None and top.get_state_set().contains(SHOWING):
                    result.append(top)
        except Exception:
            pass
        return result

    def box_of(node):
        # Unmapped widgets report INT_MIN coordinates or no size: no box.
        e = node.get_extents(SCREEN)
        if e.width <= 0 or e.height <= 0 or e.x < -100000 or e.y < -100000:
            return None
        return (e.x, e.y, e.width, e.height)

    def clip(box, bound):
        if bound is None:
            return box
        x0, y0 = max(box[0], bound[0]), max(box[1], bound[1])
        x1, y1 = min(box[0] + box[2], bound[0] + bound[2]), min(box[1] + box[3], bound[1] + bound[3])
        return (x0, y0, x1 - x0, y1 - y0) if x1 > x0 and y1 > y0 else None

    def text_of(node, role):
        if role not in TEXT_ROLES or 'Text' not in node.get_interfaces():
            return None
        count = Atspi.Text.get_character_count(node)
        return Atspi.Text.get_text(node, 0, min(count, MAX_TEXT)) if count > 0 else ''

    def first_visible(node, bound):
        # Rows of a long list scrolled far down: start at the row showing at the top of the
        # window (toolkits unmap the rows around it, so their boxes cannot be searched).
        try:
            row = Atspi.Component.get_accessible_at_point(node, bound[0] + 2, bound[1] + 2, SCREEN)
            return max(0, row.get_index_in_parent() - 1) if row is not None else 0
        except Exception:
            return 0

    def walk(node, depth, bound):
        """True when the node shows inside the window."""
        if state['visited'] >= max_nodes or depth > max_depth or time.monotonic() > deadline:
            state['truncated'] = True
            return False
        state['visited'] += 1
        try:
            states = node.get_state_set()
            role = node.get_role_name() or ''
            if not states.contains(SHOWING):
                # GTK3 leaves a scrolled window's viewport unmapped while the list in it shows.
                if not (role in CLIPPING and states.contains(VISIBLE)):
                    return False
                return any([walk(node.get_child_at_index(i), depth + 1, bound) for i in range(node.get_child_count())])
            full = box_of(node)
            box = clip(full, bound) if full is not None else None
            if full is not None and box is None:
                return False  # scrolled out of the window, and its children with it
            name = (node.get_name() or '').strip()
            wanted = name or (role in USEFUL and role not in BARE_LABELS)
            if box is not None and role not in CONTAINERS and wanted:
                item = {'name': name, 'role': role, 'box': box, 'states': [s.value_nick for s in states.get_states()]}
                text = text_of(node, role)
                if text is not None and text != name:
                    item['text'] = text
                out.append(item)
            count = node.get_child_count()
            if box is not None and (depth == 0 or role in CLIPPING):
                bound = box
            elif role == 'menu':
                bound = None  # its items drop down in a popup of their own, maybe past the window
            ordered = role in LISTS and bound is not None
            start = first_visible(node, bound) if ordered and count > MAX_CHILDREN else 0
        except Exception:
            return False  # the app went away or does not answer; keep what the others gave
        shown, misses = False, 0
        for i in range(start, min(count, start + MAX_CHILDREN)):
            try:
                child = node.get_child_at_index(i)
            except Exception:
                continue
            if child is not None and walk(child, depth + 1, bound):
                shown, misses = True, 0
            elif shown and ordered:
                misses += 1
                if misses >= LIST_GAP:
                    return True  # past the last row the window shows
        if count > start + MAX_CHILDREN:
            state['truncated'] = True
        return True

    roots = []
    if active_only:
        for app in apps:
            tops = toplevels(app)
            active = [t for t in tops if t.get_state_set().contains(ACTIVE)]
            if active:
                # Its open popups (combo lists, context menus) are separate toplevels of the app.
                roots = active[:1] + [t for t in tops if t not in active and t.get_role_name() in POPUPS]
                break
    else:
        roots = [t for app in apps for t in toplevels(app)]
    for root in roots:
        walk(root, 0, None)
    return {'ok': True, 'elements': out, 'visited': state['visited'], 'truncated': state['truncated']}

def focused_in_active(Atspi, apps, max_nodes, deadline):
    # An explicit stack: deep trees must not hit the recursion limit, and the walk stops at the focus.
    ACTIVE, FOCUSED, SHOWING, VISIBLE = (Atspi.StateType.ACTIVE, Atspi.StateType.FOCUSED,
        Atspi.StateType.SHOWING, Atspi.StateType.VISIBLE)
    for app in apps:
        try:
            tops = [app.get_child_at_index(i) for i in range(app.get_child_count())]
        except Exception:
            continue
        for top in tops:
            try:
                if top is None or not top.get_state_set().contains(ACTIVE):
                    continue
            except Exception:
                continue
            stack, visited = [top], 0
            while stack and visited < max_nodes and time.monotonic() < deadline:
                node = stack.pop()
                visited += 1
                try:
                    states = node.get_state_set()
                    if node is not top and states.contains(FOCUSED):
                        return {'name': (node.get_name() or '').strip(), 'role': node.get_role_name() or '',
                            'states': [s.value_nick for s in states.get_states()]}
                    if node is not top and not (states.contains(SHOWING) or states.contains(VISIBLE)):
                        continue
                    count = min(node.get_child_count(), MAX_CHILDREN)
                    stack.extend(node.get_child_at_index(i) for i in reversed(range(count)))
                except Exception:
                    continue
            return None
    return None

try:
    result = main()
except Exception as e:
    result = {'ok': False, 'error': '%s: %s' % (type(e).__name__, e)}
sys.stdout.write(json.dumps(result))
`;

/**
 * Reads the accessibility tree of the display in `env`. Nothing runs until the first call;
 * one call is one python3 process: 50-90 ms for a calculator-sized window, under 0.25 s for a
 * window with a 3000-row list (only the rows showing are read).
 */
export class AtspiAccessibility implements AccessibilityPort {
  readonly name = 'at-spi';
  private readonly env: NodeJS.ProcessEnv;
  private readonly python: string;
  private availability: Promise<boolean> | undefined;
  private lastProblem: string | undefined;

  constructor(
    env: NodeJS.ProcessEnv = process.env,
    private readonly options: AtspiOptions = {},
  ) {
    this.env = atspiEnv(env);
    // python3-gi is installed for Debian's interpreter; a pyenv or venv python3 first on PATH
    // usually lacks gi.
    this.python = options.python ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
  }

  /** Why available() said no, for messages; undefined when it said yes or has not run. */
  get unavailableReason(): string | undefined {
    return this.lastProblem;
  }

  available(): Promise<boolean> {
    this.availability ??= this.run(['probe', '0', '0', '0', '0'], this.options.probeTimeoutMs ?? 8_000).then(
      (result) => {
        if (result.ok) return true;
        this.lastProblem = result.error ?? 'the AT-SPI registry did not answer';
        return false;
      },
      (error: unknown) => {
        this.lastProblem = error instanceof Error ? error.message : String(error);
        return false;
      },
    );
    return this.availability;
  }

  async elements(options: AccessibilityQueryOptions = {}): Promise<AccessibleElement[]> {
    const timeoutMs = this.options.timeoutMs ?? 5_000;
    // The walk stops itself a little before the hard timeout and returns what it has.
    const budgetSeconds = Math.max(0.2, (timeoutMs * 0.7) / 1000);
    const args = [
      'elements',
      options.activeWindowOnly === false ? '0' : '1',
      String(this.options.maxDepth ?? 60),
      String(this.options.maxNodes ?? 4_000),
      budgetSeconds.toFixed(2),
    ];
    const result = await this.run(args, timeoutMs, options.signal);
    if (!result.ok) throw new Error(`AT-SPI: ${result.error ?? 'unknown error'}`);
    return (result.elements ?? []).map(toElement).sort(readingOrder);
  }

  async focusedElement(signal?: AbortSignal): Promise<FocusedElement | undefined> {
    const timeoutMs = this.options.timeoutMs ?? 5_000;
    const budgetSeconds = Math.max(0.2, (timeoutMs * 0.7) / 1000);
    const args = ['focused', '1', '0', String(this.options.maxNodes ?? 4_000), budgetSeconds.toFixed(2)];
    const result = await this.run(args, timeoutMs, signal);
    if (!result.ok) throw new Error(`AT-SPI: ${result.error ?? 'unknown error'}`);
    return result.focused ? { name: result.focused.name, role: result.focused.role, states: result.focused.states } : undefined;
  }

  private run(args: string[], timeoutMs: number, signal?: AbortSignal): Promise<ScriptResult> {
    return new Promise((resolve, reject) => {
      // -E: a PYTHONPATH or PYTHONHOME meant for another interpreter must not break gi.
      execFile(
        this.python,
        ['-E', '-c', SCRIPT, ...args],
        { env: this.env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024, signal, windowsHide: true },
        (error, stdout, stderr) => {
          if (error) {
            const why = failure(error, timeoutMs, signal);
            reject(new Error(`AT-SPI query failed (${this.python}): ${why}${stderrTail(stderr)}`, { cause: error }));
            return;
          }
          try {
            resolve(JSON.parse(stdout) as ScriptResult);
          } catch (parseError) {
            reject(new Error(`AT-SPI query printed no JSON${stderrTail(stderr)}`, { cause: parseError }));
          }
        },
      );
    });
  }
}

/**
 * AT_SPI_BUS_ADDRESS names the a11y bus of one session; without that session's
 * DBUS_SESSION_BUS_ADDRESS (as VirtualDisplay's env) it belongs to another display, whose apps
 * would be read instead of this one's.
 */
function atspiEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  if (!copy.DBUS_SESSION_BUS_ADDRESS) delete copy.AT_SPI_BUS_ADDRESS;
  return copy;
}

function toElement(raw: ScriptElement): AccessibleElement {
  const [x, y, width, height] = raw.box;
  const bbox: BBox = { x, y, width, height };
  return { name: raw.name, role: raw.role, bbox, states: raw.states, ...(raw.text !== undefined ? { text: raw.text } : {}) };
}

function readingOrder(a: AccessibleElement, b: AccessibleElement): number {
  return a.bbox.y - b.bbox.y || a.bbox.x - b.bbox.x;
}

/** Not error.message: that repeats the whole command line, script included. */
function failure(error: ExecFileException, timeoutMs: number, signal: AbortSignal | undefined): string {
  if (signal?.aborted) return 'cancelled';
  if (error.killed) return `no answer within ${timeoutMs} ms`;
  if (typeof error.code === 'string') return `${error.code} (${error.message.split('\n')[0] ?? ''})`;
  return error.signal ? `killed by ${error.signal}` : `exit code ${error.code ?? 'unknown'}`;
}

function stderrTail(stderr: string | Buffer): string {
  const text = String(stderr).trim();
  return text ? `; stderr: ${text.slice(-500)}` : '';
}
