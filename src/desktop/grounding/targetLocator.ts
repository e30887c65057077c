import { centreOf, clipBox, containsPoint, sameBox, type BBox } from '../../common/geometry';
import { accessibleAnchor } from './accessibleLocator';
import type { Desktop } from '../ports/desktop';
import type { AccessibilityPort, AccessibleElement } from '../ports/accessibilityPort';
import type { WindowInfo } from '../ports/windowPort';
import type { ScreenReader, WindowReading } from '../reading/screenReader';
import { isSecretRole, type ScreenPrivacy } from '../reading/screenPrivacy';
import { compactCandidates } from './compactMatch';
import type { Anchor } from './nearAnchor';
import { byStrength, DEFAULT_RULES, describeCandidate, isProseWord, isShortQuery, judgeOcr, type Judged, type TargetRuleOptions } from './targetRules';
import { drawnOnTop, isBlank, treeMatches, type TreeMatch } from './targetTree';
import { mayDrawUnnamedGlyphs, TREE_COVERAGE, treeCoverage, treeMentions, treeTextCoverage } from './treeCoverage';
import { coveringParts, TreeKnowledge } from './treeKnowledge';
import { labelAbsentFromPixels } from './pixelAbsence';
import type { Candidate } from './candidate';
import { findCandidates, locateText, tokenize } from './textLocator';
import { coveredAt, elementVisible, hidden, isActive, isDialogWindow, uncovered } from './windowScene';
import { readSettledScene } from './sceneRead';
import { Trace, type LocateTrace } from './locateTrace';
import type { Search, TargetQuery, TargetResult } from './locateTypes';
import { decide, ocrAnchor, onlyElsewhere, treeSaysLetter } from './locateAnswers';
import { isAskerWindow, type Asker } from './askerWindows';

// Where to click for a label, fast on a busy screen and never on a guess. The accessibility
// tree answers first where it has the label exactly (no OCR at all); otherwise the active
// window's pixels are read (cached per window by its pixels), then the tree of the other
// windows, then their pixels. Whatever could be something else is reported, not clicked. The
// window GAI was asked from (a terminal, VS Code) shows the request itself and is looked past.

export interface TargetLocatorOptions extends TargetRuleOptions {
  /** Largest per-channel spread of an element's pixels that still counts as nothing drawn; default 10. */
  blankTolerance?: number;
  /** Where requests come from: those windows (a terminal showing `gai click Save`) are looked past. */
  asker?: Asker;
  /**
   * false: a window not seen active before is read whole before its tree's silence counts (no
   * glyph check of its pixels). Default true.
   */
  pixelCheck?: boolean;
}

export class TargetLocator {
  /** The last locate()'s path, for benches and tests. */
  lastTrace?: LocateTrace;
  private readonly blankTolerance: number;

  constructor(
    /** The desktop services' parts it uses (named here, not imported: desktopServices builds the locator). */
    private readonly services: { desktop: Desktop; reader: ScreenReader; privacy: ScreenPrivacy },
    private readonly options: TargetLocatorOptions = {},
  ) {
    this.blankTolerance = options.blankTolerance ?? 10;
  }

  async locate(text: string, query: TargetQuery = {}): Promise<TargetResult> {
    if (tokenize(text).length === 0) return { status: 'not_found', suggestions: [], reason: 'the text to find is empty' };
    const { desktop } = this.services;
    const began = performance.now();
    const size = await desktop.screen.size();
    const scene = await readSettledScene(desktop.windows, { x: 0, y: 0, width: size.width, height: size.height }, query.signal);
    const askers = scene.windows.filter((w) => !hidden(scene, w) && this.isAsker(w));
    const askerActive = scene.active !== undefined && this.isAsker(scene.active);
    const search: Search = { text, query, scene, trace: new Trace(began), doubtful: [], blank: [], weak: [], suggestions: new Set(), privateWindows: new Set(), elements: [], askerActive, askers };
    this.lastTrace = search.trace;
    const tree = query.accessibility === false ? undefined : await this.treePort();

    if (tree && !askerActive) {
      search.trace.step('tree-active');
      const answer = await this.fromTree(tree, true, search);
      if (answer) return answer;
    }
    const others = tree !== undefined && scene.windows.some((w) => !isActive(scene, w));
    // The active tree is known to hold what the window shows and lacks the label: other trees first.
    let treeAll: TargetResult | undefined | null = null;
    const front = tree && others && !askerActive ? scene.active : undefined;
    let silence = front ? this.knowledge.silentAbout(front, search.elements, text) : undefined;
    // Nothing learnt of the window that judges this label: its pixels are checked without reading them all.
    if (front && !silence && !this.knowledge.judges(front, text) && (await this.pixelsLack(search, front))) silence = 'names';
    if (tree && silence) {
      search[silence === 'names' ? 'activeTreeComplete' : 'activeTextKnown'] = true;
      search.trace.step('tree-all');
      treeAll = await this.fromTree(tree, false, search);
      if (treeAll?.status === 'found') return treeAll;
    }
    const ocrActive = askerActive ? undefined : await this.fromActiveWindow(search);
    if (ocrActive) return ocrActive;
    if (others) {
      if (treeAll === null) search.trace.step('tree-all');
      const answer = treeAll === null ? await this.fromTree(tree, false, search) : treeAll;
      if (answer) return answer;
    }
    const ocrOthers = await this.fromOtherWindows(search);
    if (ocrOthers) return ocrOthers;
    if (search.inexact) return decide(search.inexact.candidates, search.query, search.inexact.anchor, 'ocr');
    return this.lastResort(search);
  }

  /** How far each window's tree holds what its pixels show (as OCR last read them while it was active). */
  private readonly knowledge = new TreeKnowledge();

  private async treePort(): Promise<AccessibilityPort | undefined> {
    const tree = this.services.desktop.accessibility;
    return tree && (await tree.available().catch(() => false)) ? tree : undefined;
  }

  /** The tree's exact answer: found, ambiguous, or undefined to go on looking. */
  private async fromTree(tree: AccessibilityPort, activeOnly: boolean, search: Search, fresh = false): Promise<TargetResult | undefined> {
    let elements: AccessibleElement[];
    try {
      elements = await tree.elements({ activeWindowOnly: activeOnly, signal: search.query.signal, ...(fresh ? { fresh: true } : {}) });
    } catch (error) {
      if (search.query.signal?.aborted) throw error;
      return undefined; // a tree that fails to answer leaves OCR to it
    }
    const usable = this.usable(elements, search);
    if (activeOnly || search.elements.length === 0) search.elements = usable.map((u) => u.element);
    if (!activeOnly) search.allOwned = usable;
    const matches = await treeMatches(tree, usable, search.text, { activeOnly, signal: search.query.signal }, (words) => this.usable(words, search));
    const exact = matches.filter((m) => m.candidate.kind === 'exact' && !search.blank.some((b) => sameBox(b.bbox, m.candidate.bbox)));
    if (exact.length === 0) {
      if (!isShortQuery(search.text)) search.weak.push(...matches.filter((m) => m.candidate.kind === 'substring'));
      return undefined;
    }
    let anchor: Anchor | undefined;
    if (search.query.near !== undefined) {
      anchor = typeof search.query.near === 'string' ? accessibleAnchor(search.elements, search.query.near) : search.query.near;
      if (!anchor) return undefined; // the anchor may be text only OCR can read
    }
    const chosen = search.query.occurrence !== undefined || search.query.near !== undefined ? exact : await drawnOnTop(exact, search.scene, async (m) => (m.owner ? (await this.readWindow(search, m.owner, isActive(search.scene, m.owner))).analysis : undefined));
    const drawn: TreeMatch[] = [];
    for (const match of chosen.slice(0, 8)) {
      if (await this.isDrawn(match.candidate.bbox)) drawn.push(match);
      else search.blank.push(match.candidate);
    }
    if (drawn.length < chosen.slice(0, 8).length && !fresh) {
      // Nothing drawn where the tree says: its snapshot may be older than the screen.
      const again = await this.fromTree(tree, activeOnly, search, true);
      if (again) return again;
      return undefined;
    }
    if (drawn.length === 0) return undefined;
    const answer = decide(
      drawn.map((m) => m.candidate),
      search.query,
      anchor,
      'accessibility',
    );
    return activeOnly ? answer : onlyElsewhere(search, answer, drawn[0]?.owner ?? drawn[0]?.element.window?.name);
  }

  /** Whether the window's pixels show nothing like the label that its tree does not account for. */
  private async pixelsLack(search: Search, window: WindowInfo): Promise<boolean> {
    if (this.options.pixelCheck === false || search.elements.length === 0 || treeMentions(search.elements, search.text)) return false;
    const bounds = clipBox(window.bounds, search.scene.screen);
    if (!bounds) return false;
    search.trace.step('pixels-active');
    const { desktop } = this.services;
    const began = performance.now();
    const image = await desktop.screen.grab(bounds).catch(() => undefined);
    if (!image) return false;
    const grabbed = performance.now();
    // Secret fields are not read; what is drawn in them is no label.
    const fields = search.elements.filter((e) => isSecretRole(e.role)).map((e) => e.bbox);
    const verdict = await labelAbsentFromPixels(image, search.elements, search.text, desktop.ocr, { covered: [...coveringParts(search.scene, window), ...fields], ...(search.query.signal ? { signal: search.query.signal } : {}) });
    const took = `grab ${Math.round(grabbed - began)} ms, check ${Math.round(performance.now() - grabbed)} ms`;
    search.trace.note(verdict.absent ? `absent: ${verdict.regions} regions, ${verdict.crops} read; ${took}` : `${verdict.why}; ${took}`);
    if (verdict.absent) this.knowledge.rememberAccounted(window, verdict.read, verdict.minChars, verdict.glyphs);
    return verdict.absent;
  }

  /** Showing elements not under another window or an open popup, nor in a private window; secret fields lose their text. */
  private usable(elements: AccessibleElement[], search: Search): Array<{ element: AccessibleElement; owner?: WindowInfo }> {
    const kept: Array<{ element: AccessibleElement; owner?: WindowInfo }> = [];
    for (const raw of uncovered(elements, search.scene.windows)) {
      const bbox = clipBox(raw.bbox, search.scene.screen);
      if (!bbox) continue;
      const element: AccessibleElement = { ...raw, bbox, ...(isSecretRole(raw.role) ? { text: undefined } : {}) };
      const { visible, owner } = elementVisible(search.scene, element);
      if (!visible || (owner ? this.isAsker(owner) : element.pid !== undefined && this.options.asker?.pids.includes(element.pid))) continue;
      if (owner && this.services.privacy.isPrivateWindow(owner)) {
        search.privateWindows.add(owner.title);
        continue;
      }
      kept.push({ element, ...(owner ? { owner } : {}) });
    }
    return kept;
  }

  /** Whether anything is drawn inside the box (a label, an icon): a blank box means the tree is stale. */
  private async isDrawn(box: BBox): Promise<boolean> {
    const inset = box.width > 8 && box.height > 8 ? 2 : 0;
    const inner = { x: box.x + inset, y: box.y + inset, width: box.width - 2 * inset, height: box.height - 2 * inset };
    try {
      return !isBlank(await this.services.desktop.screen.grab(inner), this.blankTolerance);
    } catch {
      return true; // a box the screen cannot grab is not evidence against the tree
    }
  }

  /** OCR of the active window alone (of the whole screen where the active window is unknown). */
  private async fromActiveWindow(search: Search): Promise<TargetResult | undefined> {
    const { scene } = search;
    const reader = this.services.reader;
    if (!scene.active) {
      search.trace.step('ocr-screen');
      const reading = await reader.read({ signal: search.query.signal });
      if (reading.ocr !== 'cached') search.trace.ocrRuns++;
      if (reading.withheld) search.privateWindows.add('the active window');
      return this.judgeReading(search, reading.analysis, () => true);
    }
    search.trace.step('ocr-active');
    const reading = await this.readWindow(search, scene.active, true);
    const coverage = treeCoverage(reading.analysis, search.elements, reading.bounds);
    // A small element whose name OCR did not read where it is drawn may be a glyph button named
    // in words ("−" named "Zoom out"): then the tree's silence about a glyph proves nothing.
    search.activeTreeComplete ||= coverage >= TREE_COVERAGE;
    search.activeGlyphDoubt = mayDrawUnnamedGlyphs(reading.analysis, search.elements, reading.bounds);
    const text = treeTextCoverage(reading.analysis, search.elements, reading.bounds);
    search.activeTextKnown = text.share >= TREE_COVERAGE;
    if (this.services.desktop.accessibility && search.query.accessibility !== false) this.knowledge.remember(scene.active, coverage, text);
    const shown = (c: Candidate): boolean => containsPoint(reading.bounds, c.point) && !coveredAt(scene, c.point, scene.active) && !treeSaysLetter(search, c);
    // Anything OCR read there like the label (fuzzy, inside a longer word, unsure) is a reason for doubt.
    const candidates = findCandidates(reading.analysis, search.text).filter(shown);
    search.activeLookAlikes = candidates.length;
    return this.judgeReading(search, reading.analysis, shown, candidates);
  }

  /** OCR of each other window not hidden, topmost first; the screen where windows cannot be listed. */
  private async fromOtherWindows(search: Search): Promise<TargetResult | undefined> {
    const { scene } = search;
    if (!scene.active) return undefined;
    if (!scene.listed) {
      search.trace.step('ocr-screen');
      const reading = await this.services.reader.read({ signal: search.query.signal });
      if (reading.ocr !== 'cached') search.trace.ocrRuns++;
      const outside = (c: Candidate): boolean => !containsPoint(scene.active!.bounds, c.point);
      return this.judgeReading(search, reading.analysis, outside);
    }
    const found: Array<{ window: WindowInfo; sure: Candidate[]; anchor?: Anchor }> = [];
    for (const window of scene.windows) {
      if (isActive(scene, window) || hidden(scene, window) || this.isAsker(window)) continue;
      if (search.allOwned && this.knowledge.cannotShow(window, search.allOwned, search.text)) continue;
      search.trace.step('ocr-window');
      const reading = await this.readWindow(search, window, false);
      const visible = (c: Candidate): boolean => containsPoint(reading.bounds, c.point) && !coveredAt(scene, c.point, window) && !treeSaysLetter(search, c);
      const judged = this.judgeOcrIn(search, reading.analysis, visible);
      if (judged.sure.length > 0) found.push({ window, sure: judged.sure, anchor: ocrAnchor(search, reading.analysis) });
    }
    if (found.length === 0) return undefined;
    const exact = found.filter((f) => f.sure.some((c) => c.kind === 'exact' && !isProseWord(search.text, c)));
    const pool = exact.length > 0 ? exact : found;
    if (exact.length === 0 && search.inexact) return undefined; // the active window's own reading goes first
    // A label in two windows: the dialog among them, else ask.
    const dialogs = pool.filter((f) => isDialogWindow(f.window));
    const chosen = pool.length > 1 && dialogs.length === 1 ? dialogs : pool;
    const candidates = chosen.flatMap((f) => f.sure).sort(byStrength);
    return onlyElsewhere(search, decide(candidates, search.query, chosen[0]?.anchor, 'ocr'), chosen[0]?.window);
  }

  private isAsker(window: WindowInfo): boolean {
    return isAskerWindow(window, this.options.asker);
  }

  private async readWindow(search: Search, window: WindowInfo, active: boolean): Promise<WindowReading> {
    const reading = await this.services.reader.readWindow(window, {
      signal: search.query.signal,
      screen: search.scene.screen,
      active,
      covered: coveringParts(search.scene, window),
      // The tree already read tells the secret fields: it is not asked again.
      ...(search.elements.length > 0 ? { fields: search.elements.filter((e) => isSecretRole(e.role) && containsPoint(window.bounds, centreOf(e.bbox))).map((e) => e.bbox) } : {}),
    });
    if (reading.ocr === 'full' || reading.ocr === 'partial') search.trace.ocrRuns++;
    if (reading.withheld) search.privateWindows.add(window.title);
    return reading;
  }

  /** Decides on one reading's candidates: sure exact ones answer; sure inexact ones wait for the tree. */
  private judgeReading(search: Search, analysis: WindowReading['analysis'], keep: (c: Candidate) => boolean, candidates?: Candidate[]): TargetResult | undefined {
    const judged = this.judgeOcrIn(search, analysis, keep, candidates);
    if (judged.sure.length === 0) return undefined;
    const anchor = ocrAnchor(search, analysis);
    const exact = judged.sure.filter((c) => c.kind === 'exact' && !isProseWord(search.text, c));
    if (exact.length > 0) return decide(exact, search.query, anchor, 'ocr');
    // A word of prose ("file" in a sentence, for "File") waits, as inexact matches do, for a control named so.
    const prose = judged.sure.filter((c) => c.kind === 'exact');
    search.inexact ??= { candidates: prose.length > 0 ? prose : judged.sure, ...(anchor ? { anchor } : {}) };
    return undefined;
  }

  /** OCR candidates of one reading, judged; where words match nothing, the words run together are tried. */
  private judgeOcrIn(
    search: Search,
    analysis: WindowReading['analysis'],
    keep: (c: Candidate) => boolean,
    candidates: Candidate[] = findCandidates(analysis, search.text).filter(keep),
  ): Judged {
    let judged = judgeOcr(search.text, candidates, this.options);
    if (candidates.length === 0) {
      const compact = compactCandidates(analysis, search.text).filter(keep);
      const floor = this.options.minConfidence ?? DEFAULT_RULES.minConfidence;
      judged = { sure: compact.filter((c) => c.confidence >= floor), doubtful: compact.filter((c) => c.confidence < floor) };
      if (compact.length === 0) this.addSuggestions(search, analysis, candidates);
    }
    search.doubtful.push(...judged.doubtful);
    return judged;
  }

  private addSuggestions(search: Search, analysis: WindowReading['analysis'], candidates: Candidate[]): void {
    if (candidates.length > 0 || search.suggestions.size >= 5) return;
    const located = locateText(analysis, search.text);
    if (located.status === 'not_found') for (const s of located.suggestions) search.suggestions.add(s);
  }

  /** Nothing sure anywhere: a tree name that starts with the words asked, else the doubt, else not found. */
  private async lastResort(search: Search): Promise<TargetResult> {
    const words = tokenize(search.text).join(' ');
    const weak = search.weak.filter((m) => (tokenize(m.candidate.text).join(' ') + ' ').startsWith(`${words} `) && words.length >= 3);
    const unique = weak.filter((m, i) => weak.findIndex((o) => sameBox(o.candidate.bbox, m.candidate.bbox)) === i);
    if (unique.length === 1 && (await this.isDrawn(unique[0]!.candidate.bbox))) return decide([unique[0]!.candidate], search.query, undefined, 'accessibility');
    const doubtful = [...search.doubtful].sort(byStrength);
    if (doubtful.length > 0) {
      return { status: 'low_confidence', candidates: doubtful.slice(0, 5), reason: `Not sure: best match ${describeCandidate(doubtful[0]!)}` };
    }
    if (search.blank.length > 0) {
      const at = search.blank[0]!.point;
      return { status: 'low_confidence', candidates: search.blank.slice(0, 5), reason: `the accessibility tree places "${search.text}" at (${at.x}, ${at.y}) but nothing is drawn there` };
    }
    const hiddenIn = [...search.privateWindows];
    const notes = [
      ...(hiddenIn.length > 0 ? [`private windows are not read (${hiddenIn.map((t) => `"${t}"`).join(', ')})`] : []),
      ...(search.askers.length > 0 ? [`${search.askers.map((w) => `"${w.title}"`).join(', ')}, where GAI was asked from, is not searched: it shows the request itself`] : []),
    ];
    const reason = notes.length > 0 ? `"${search.text}" was not found; ${notes.join('; ')}` : undefined;
    return { status: 'not_found', suggestions: [...search.suggestions].slice(0, 5), ...(reason ? { reason } : {}) };
  }
}
