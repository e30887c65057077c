// Turns what the person did, event by event, into a routine's steps: a double click is one
// step, scrolls in a row one step, the characters typed into one field one text entry (a
// backspace takes back the last one), and a chord (ctrl+h) or a special key a key step.
import type { Modifier } from '../../desktop/ports/inputPort';
import type { RecordedButton, RecordedKey, RecordedScroll } from '../../desktop/ports/inputRecorderPort';
import type { ElementAnchor, RoutineAnchors, RoutineStep, WindowAnchor } from '../store/routineTypes';
import { newStepId } from '../store/routineRecords';
import { escapeText } from '../store/routineText';

export type Observation =
  | { kind: 'click'; input: RecordedButton; anchors: RoutineAnchors }
  | { kind: 'scroll'; input: RecordedScroll; anchors: RoutineAnchors }
  /** `field`: the element with the keyboard focus when the key went down; `secret`: a password field (or a private window). */
  | { kind: 'key'; input: RecordedKey; window?: WindowAnchor; field?: ElementAnchor; secret: boolean };

const DOUBLE_CLICK_MS = 450;
const DOUBLE_CLICK_PX = 5;
const SCROLL_RUN_MS = 1_500;
/**
 * The recorder reports a modifier only when it was pressed alone (one that served a chord rides
 * on that chord's key); alone, shift and caps lock change nothing, while super or alt may open a
 * launcher or a menu, so those stay key steps.
 */
const INERT_KEYS = new Set(['shift', 'capslock']);

export interface CompiledRecording {
  steps: RoutineStep[];
  /** The texts typed (not secrets), in order: what may become parameters. */
  typed: string[];
}

export function compileSteps(observations: readonly Observation[]): CompiledRecording {
  const steps: RoutineStep[] = [];
  const typed: string[] = [];
  let typing: { text: string; secret: boolean; count: number; window?: WindowAnchor; field?: ElementAnchor } | undefined;
  let lastClick: { step: RoutineStep & { kind: 'click' }; input: RecordedButton } | undefined;
  let lastScroll: { step: RoutineStep & { kind: 'scroll' }; input: RecordedScroll } | undefined;

  const flushTyping = (pressEnter = false): void => {
    if (!typing) return;
    const anchors: RoutineAnchors = { landmarks: [], ...(typing.window ? { window: typing.window } : {}), ...(typing.field ? { element: typing.field } : {}) };
    const enter = pressEnter ? { pressEnter: true as const } : {};
    if (typing.secret) steps.push({ id: newStepId(), kind: 'type', secret: true, length: Math.max(1, typing.count), anchors, ...enter });
    else if (typing.text !== '') {
      steps.push({ id: newStepId(), kind: 'type', text: escapeText(typing.text), anchors, ...enter });
      typed.push(typing.text);
    } else if (pressEnter) steps.push(keyStep('enter', [], anchors));
    typing = undefined;
  };

  for (const observation of observations) {
    if (observation.kind !== 'click') lastClick = undefined;
    if (observation.kind !== 'scroll') lastScroll = undefined;
    switch (observation.kind) {
      case 'click': {
        flushTyping();
        const { input, anchors } = observation;
        if (lastClick && isSecondClick(lastClick.input, input)) {
          lastClick.step.double = true;
          lastClick = undefined;
          break;
        }
        const step: RoutineStep & { kind: 'click' } = { id: newStepId(), kind: 'click', button: input.button, anchors };
        steps.push(step);
        lastClick = { step, input };
        break;
      }
      case 'scroll': {
        flushTyping();
        const { input, anchors } = observation;
        if (lastScroll && continuesScroll(lastScroll.input, input)) {
          lastScroll.step.amount = Math.min(50, lastScroll.step.amount + 1);
          lastScroll.input = input;
          break;
        }
        const step: RoutineStep & { kind: 'scroll' } = { id: newStepId(), kind: 'scroll', direction: input.direction, amount: 1, anchors };
        steps.push(step);
        lastScroll = { step, input };
        break;
      }
      case 'key': {
        const { input } = observation;
        if (INERT_KEYS.has(input.key)) break;
        const chord = input.modifiers.some((m) => m !== 'shift');
        const sameField = typing !== undefined && typing.window?.app === observation.window?.app && sameAnchor(typing.field, observation.field);
        if (input.text !== undefined && !chord) {
          if (typing && !sameField) flushTyping();
          typing ??= { text: '', secret: false, count: 0, ...(observation.window ? { window: observation.window } : {}), ...(observation.field ? { field: observation.field } : {}) };
          typing.text += input.text;
          typing.count += 1;
          typing.secret ||= observation.secret;
          break;
        }
        if (input.key === 'backspace' && !chord && typing && sameField && typing.count > 0) {
          typing.text = [...typing.text].slice(0, -1).join('');
          typing.count -= 1;
          break;
        }
        if (input.key === 'enter' && !chord && typing && sameField) {
          flushTyping(true);
          break;
        }
        flushTyping();
        const anchors: RoutineAnchors = { landmarks: [], ...(observation.window ? { window: observation.window } : {}), ...(observation.field ? { element: observation.field } : {}) };
        steps.push(keyStep(input.key, input.modifiers, anchors));
        break;
      }
    }
  }
  flushTyping();
  return { steps, typed };
}

function keyStep(key: string, modifiers: readonly Modifier[], anchors: RoutineAnchors): RoutineStep {
  return { id: newStepId(), kind: 'key', key, modifiers: [...new Set(modifiers)], anchors };
}

function isSecondClick(first: RecordedButton, second: RecordedButton): boolean {
  const gap = (second.serverTime - first.serverTime + 2 ** 32) % 2 ** 32;
  return first.button === second.button && gap <= DOUBLE_CLICK_MS && Math.abs(first.at.x - second.at.x) <= DOUBLE_CLICK_PX && Math.abs(first.at.y - second.at.y) <= DOUBLE_CLICK_PX;
}

function continuesScroll(last: RecordedScroll, next: RecordedScroll): boolean {
  const gap = (next.serverTime - last.serverTime + 2 ** 32) % 2 ** 32;
  return last.direction === next.direction && gap <= SCROLL_RUN_MS && Math.abs(last.at.x - next.at.x) <= 40 && Math.abs(last.at.y - next.at.y) <= 40;
}

function sameAnchor(a: ElementAnchor | undefined, b: ElementAnchor | undefined): boolean {
  return a?.role === b?.role && a?.name === b?.name;
}
