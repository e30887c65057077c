// The Routines list's texts (pure, no DOM, unit-tested): the facts line under a routine, a
// parameter with its default, and a replay's proposed change in words.
import type { RoutineParameterView, RoutineProposalView, RoutineView } from '../../shared/brainProtocol';
import { ago, plural } from './brainFormat';

export const NO_ROUTINES_TEXT = 'No routines yet — show GAI a task with GAI: Record Steps...';

/** `5 steps · {find} {replace} · 4 runs, 1 failed · last run 2 h ago` */
export function routineMeta(routine: RoutineView, now: number): string {
  const parts = [plural(routine.steps.length, 'step')];
  const runs = routine.runs.successes + routine.runs.failures;
  parts.push(runs === 0 ? 'never run' : `${plural(runs, 'run')}${routine.runs.failures > 0 ? `, ${routine.runs.failures.toLocaleString('en-US')} failed` : ''}`);
  const last = routine.runs.lastRunAt ? ago(routine.runs.lastRunAt, now) : '';
  if (last) parts.push(`last run ${last}`);
  return parts.join(' · ');
}

/** The section's count: "2", or "100 of 130" when the host left some out. */
export function routinesDescription(shown: number, total: number): string {
  return total > shown ? `${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}` : shown.toLocaleString('en-US');
}

/** `= "cat"` after the name; a secret says so, a parameter without default says nothing. */
export function parameterValue(parameter: RoutineParameterView): string {
  if (parameter.secret) return 'secret, asked at every run';
  return parameter.default === undefined ? '' : `= "${parameter.default}"`;
}

/** `Proposed by the person: click "Replace all" — because the button was renamed` */
export function proposalText(proposal: RoutineProposalView): string {
  const who = proposal.by === 'person' ? 'the person' : 'the model';
  const reason = proposal.reason.trim();
  return `Proposed by ${who}: ${proposal.words}${reason ? ` — because ${reason}` : ''}`;
}

/** Why the Confirm button is there. */
export const UNTRUSTED_TEXT = 'Imported: GAI asks before each of its steps until you confirm it.';
