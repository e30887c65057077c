import { errorMessage } from '../../common/errors';
import { isoTime, nodeKey, type BrainNode, type Fingerprint } from '../store/brainTypes';
import { buildFingerprint, normalizeProgram, similarity, SIMILARITY_THRESHOLD, stateHashOf, type ScreenText } from './fingerprint';
import { isMenuLine, stableTitle } from './screenChrome';
import { canonicalLine, tidyLine } from './volatileText';

// Which known node a screen reading is, without a model: the exact state hash first, then
// the most similar node of the same program at or above the threshold, else a new node.

export interface Identification {
  node: BrainNode;
  /** 1 for a hash match; the score of the match; for a new node, the best score seen (or 0). */
  similarity: number;
  isNew: boolean;
  /** signature: the window and its pixels (or tree) matched one node's stored signature, no OCR. */
  matchedBy: 'hash' | 'similarity' | 'new' | 'signature';
  /** The closest known node when a new one was made: helps tune the threshold from logs. */
  closest?: { key: string; similarity: number };
  /** Set when the labeller was asked and failed; the proposed label was kept. */
  labelError?: string;
}

/** Asked for a label of a NEW node only, and only when the host configured one (e.g. a model). */
export type NodeLabeller = (request: { reading: ScreenText; fingerprint: Fingerprint; proposedLabel: string }) => Promise<string | undefined>;

export interface IdentifyOptions {
  threshold?: number;
  now?: () => number;
  labeller?: NodeLabeller;
}

const MAX_LABEL = 120;

/** The model-free part: synchronous, labels new nodes from the window title and a heading. */
export function matchState(reading: ScreenText, nodes: readonly BrainNode[], options: Omit<IdentifyOptions, 'labeller'> = {}): Identification {
  const threshold = options.threshold ?? SIMILARITY_THRESHOLD;
  // Without a window manager's answer the program is unknown, but still a program of its own.
  reading = { ...reading, programName: reading.programName.trim().slice(0, 200) || 'unknown' };
  const fingerprint = buildFingerprint(reading);
  const stateHash = stateHashOf(reading.programName, fingerprint);
  const program = normalizeProgram(reading.programName);
  const sameProgram = nodes.filter((n) => normalizeProgram(n.programName) === program);
  const exact = sameProgram.find((n) => n.stateHash === stateHash);
  if (exact) return { node: exact, similarity: 1, isNew: false, matchedBy: 'hash' };

  const probe = { programName: reading.programName, fingerprint };
  let best: { node: BrainNode; score: number } | undefined;
  for (const node of sameProgram) {
    const score = similarity(probe, node);
    // Ties go to the most visited node: it is the one paths were learned from.
    if (!best || score > best.score || (score === best.score && node.visits > best.node.visits)) best = { node, score };
  }
  if (best && best.score >= threshold) return { node: best.node, similarity: best.score, isNew: false, matchedBy: 'similarity' };
  // Only a menu word apart (an open menu's items, a menu bar read differently): the same screen.
  const menuApart = sameProgram.find((n) => differsOnlyByMenuWords(fingerprint, n.fingerprint));
  if (menuApart) return { node: menuApart, similarity: similarity(probe, menuApart), isNew: false, matchedBy: 'similarity' };

  const now = isoTime((options.now ?? Date.now)());
  const node: BrainNode = {
    key: nodeKey(reading.programName, stateHash),
    programName: reading.programName,
    stateHash,
    label: proposeLabel(reading, sameProgram),
    windowTitle: reading.windowTitle.slice(0, 500),
    fingerprint,
    firstSeen: now,
    lastSeen: now,
    visits: 1,
    updatedAt: now,
  };
  const closest = best ? { key: best.node.key, similarity: best.score } : undefined;
  return { node, similarity: best?.score ?? 0, isNew: true, matchedBy: 'new', ...(closest ? { closest } : {}) };
}

/** matchState, then for a new node the labeller (when given); a failing labeller is reported, not thrown. */
export async function identifyState(reading: ScreenText, nodes: readonly BrainNode[], options: IdentifyOptions = {}): Promise<Identification> {
  const result = matchState(reading, nodes, options);
  if (!result.isNew || !options.labeller) return result;
  try {
    const label = await options.labeller({ reading, fingerprint: result.node.fingerprint, proposedLabel: result.node.label });
    const tidy = label === undefined ? '' : tidyLine(label).slice(0, MAX_LABEL);
    return tidy ? { ...result, node: { ...result.node, label: tidy } } : result;
  } catch (error) {
    return { ...result, labelError: errorMessage(error) };
  }
}

/** Same title and headings, and every line one has and the other lacks is menu words only. */
export function differsOnlyByMenuWords(a: Fingerprint, b: Fingerprint): boolean {
  if (a.title !== b.title) return false;
  const headingsA = new Set(a.headings.filter((h) => !isMenuLine(h)));
  const headingsB = new Set(b.headings.filter((h) => !isMenuLine(h)));
  if (headingsA.size !== headingsB.size || [...headingsA].some((h) => !headingsB.has(h))) return false;
  const linesA = new Set(a.lines);
  const linesB = new Set(b.lines);
  const apart = [...a.lines.filter((l) => !linesB.has(l)), ...b.lines.filter((l) => !linesA.has(l))];
  return apart.length > 0 && apart.every(isMenuLine) && apart.length < Math.max(linesA.size, linesB.size);
}

/**
 * "Window title — heading": the most prominent heading, or else the first short line that no
 * other node of the program shows (sidebars and toolbars appear on every page), or else the
 * title alone. The heading is left out when the title already says it. The title is without
 * an editor's document name (the node stands for the editor, whichever file is open); menu
 * words never name a screen (a menu bar or an open popup is on top of the screen, not it).
 */
export function proposeLabel(reading: ScreenText, sameProgram: readonly BrainNode[]): string {
  const title = stableTitle(reading.windowTitle) || reading.programName;
  const heading = pickHeading(reading, sameProgram);
  const label = heading && !title.toLowerCase().includes(heading.toLowerCase()) ? `${title} — ${heading}` : title;
  return label.slice(0, MAX_LABEL);
}

function pickHeading(reading: ScreenText, sameProgram: readonly BrainNode[]): string | undefined {
  // A heading is the page's own tall text, even when it is a word menus use too ("Settings").
  const heading = (reading.headings ?? []).map(tidyLine).find((line) => canonicalLine(line) !== '');
  if (heading) return heading;
  // Without other pages to compare with, a menu bar would look distinctive: the title alone.
  if (sameProgram.length === 0) return undefined;
  const elsewhere = new Set(sameProgram.flatMap((n) => n.fingerprint.lines));
  const distinctive = reading.lines.map(tidyLine).find((line) => {
    const canonical = canonicalLine(line);
    const words = canonical.split(' ').length;
    return canonical !== '' && words <= 6 && !elsewhere.has(canonical) && !isMenuLine(line);
  });
  return distinctive;
}
