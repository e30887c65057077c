import type { BBox } from '../../common/geometry';
import type { ScreenElement } from '../screenElement';

/**
 * One element of the platform's accessibility tree (AT-SPI on Linux). Toolkits know their own
 * labels, so this finds what OCR misses: single glyphs ("=", "+", "7"), icons with a name,
 * text drawn over busy backgrounds.
 */
export interface AccessibleElement extends ScreenElement {
  /** The accessible name: usually the visible label; may be empty for text fields. */
  name: string;
  /** The platform's role name in lower case words, e.g. `push button`, `menu item`, `text`. */
  role: string;
  /** Screen pixels, clipped to the window it belongs to. */
  bbox: BBox;
  /** State names, e.g. `enabled`, `focused`, `checked`, `selected`. */
  states: string[];
  /** The text inside text fields, displays and paragraphs, when the toolkit exposes it: a long one's part that shows, capped. */
  text?: string;
  /** The text holds only part of what the element has (cut to a length, or not read): its silence about a word proves nothing. */
  textCut?: boolean;
  /** The top-level window the element is in, as AT-SPI names it. */
  window?: { name: string; role: string; active: boolean };
  /**
   * Its named ancestors between the top-level window and it, outermost first, at most 4 (a menu
   * item's menu, a button's pane): anchors a recorded step when two elements share a name.
   */
  ancestors?: Array<{ role: string; name: string }>;
  /** The application's AT-SPI name (e.g. 'galculator', 'chromium'). */
  app?: string;
  /** The application's process id when known. */
  pid?: number;
  /**
   * The open popups (menus) the element is drawn in, outermost first, as screen boxes. What lies
   * under a popup and is not in it is covered (Qt's menus are not top-level windows).
   */
  popups?: BBox[];
  /** The element's handle for `perform` (opaque), while the walk that read it is kept. */
  ref?: string;
}

/**
 * A pointer-free action: press the element (its toolkit's click/press action). `dryRun`: only
 * say which action would press it (and why none would), doing nothing: what an approval asks
 * about is known before anyone answers.
 */
export interface ElementAction {
  kind: 'press';
  dryRun?: boolean;
}

export interface AccessibilityQueryOptions {
  /** Only the active window (and its open popups). Default true. */
  activeWindowOnly?: boolean;
  signal?: AbortSignal;
}

/**
 * Reads what is on the screen from the toolkit instead of from pixels. Only showing elements
 * are returned, with a name or a role worth clicking (buttons, menu items, labels, text fields,
 * toggles, list items, tabs, links), in reading order.
 */
export interface AccessibilityPort {
  readonly name: string;
  /** Whether the tree can be read at all here; checked once and cached. */
  available(): Promise<boolean>;
  /**
   * Served from a cache kept fresh by AT-SPI events where the toolkit sends them; `fresh: true`
   * forces a re-read.
   */
  elements(options?: AccessibilityQueryOptions & { fresh?: boolean }): Promise<AccessibleElement[]>;
  /**
   * The element that has the keyboard focus in the active window (name, role, states; no
   * text), or undefined when nothing there has it. Lets type_text tell a password field.
   */
  focusedElement?(signal?: AbortSignal): Promise<FocusedElement | undefined>;
  /**
   * Where the text is drawn inside the text the tree's text elements show (a word of a
   * document's paragraph, of an editor): one element per whole-word, case-insensitive
   * occurrence, named by the text matched, boxed by the toolkit. A word has no element of its
   * own; this places it without reading pixels.
   */
  textBoxes?(text: string, options?: AccessibilityQueryOptions): Promise<AccessibleElement[]>;
  /**
   * Acts on an element read by `elements` (its `ref`) through the toolkit's accessibility
   * interfaces, with no pointer or keyboard event: the person's pointer stays where it is, and
   * it works where no input can be sent. The name of the action done ("click", "press"...), or
   * with `dryRun` the one that would be; rejects with the reason when the element is gone,
   * disabled or offers no such action.
   */
  perform?(ref: string, action: ElementAction, signal?: AbortSignal): Promise<string>;
  /**
   * Puts text at the caret of the editable field that has the keyboard focus in the active
   * window through the toolkit's accessibility interfaces (no key event), and checks the field
   * took it. Rejects with the reason when nothing editable has the focus or the field refused.
   */
  insertText?(text: string, signal?: AbortSignal): Promise<void>;
  /**
   * A short stable digest of the active window's tree (roles + names + rounded boxes), from the
   * cache: for cheap screen signatures.
   */
  treeDigest?(signal?: AbortSignal): Promise<string | undefined>;
}

export type FocusedElement = Pick<AccessibleElement, 'name' | 'role' | 'states'>;
