import type { RoutineStep } from '../store/routineTypes';

// A routine's steps in words, for the person reviewing them and for progress lines:
// `click "Replace All" (push button, Mousepad)`, `type "{find}" + enter`, `press ctrl+h`.

export function stepTarget(step: RoutineStep): string | undefined {
  const { element, label } = step.anchors;
  const name = element?.name.trim() || label;
  return name ? name : undefined;
}

export function describeStep(step: RoutineStep): string {
  const app = step.anchors.window?.app;
  switch (step.kind) {
    case 'click': {
      const target = stepTarget(step);
      const verb = `${step.double ? 'double-click' : step.button === 'left' ? 'click' : `${step.button}-click`}`;
      const what = target ? `"${short(target)}"` : step.anchors.point ? `at (${step.anchors.point.x}, ${step.anchors.point.y})` : 'somewhere';
      const context = [step.anchors.element?.role, app].filter(Boolean).join(', ');
      return `${verb} ${what}${context ? ` (${context})` : ''}${step.optional ? ' [optional]' : ''}`;
    }
    case 'type': {
      const what = step.text === undefined ? `a secret (${step.length ?? '?'} characters, not stored)` : `"${short(step.text)}"`;
      const field = step.anchors.element?.name ? ` into "${short(step.anchors.element.name)}"` : '';
      return `type ${what}${field}${step.pressEnter ? ' + enter' : ''}${step.optional ? ' [optional]' : ''}`;
    }
    case 'key':
      return `press ${[...step.modifiers, step.key].join('+')}${app ? ` (${app})` : ''}${step.optional ? ' [optional]' : ''}`;
    case 'scroll': {
      const target = stepTarget(step);
      return `scroll ${step.direction} ×${step.amount}${target ? ` at "${short(target)}"` : ''}${step.optional ? ' [optional]' : ''}`;
    }
  }
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 40 ? `${flat.slice(0, 40)}…` : flat;
}
