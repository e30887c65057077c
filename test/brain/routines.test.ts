// Routines as stored: steps compiled from the person's input, parameters, edits, files, merges.
import * as assert from 'node:assert/strict';
import { isGaiError } from '../../src/common/errors';
import type { Modifier } from '../../src/desktop/ports/inputPort';
import type { RecordedInput } from '../../src/desktop/ports/inputRecorderPort';
import { compileSteps, type Observation } from '../../src/navigation/recording/stepCompiler';
import { parameterValues } from '../../src/navigation/routines/routinePlayer';
import { addImported, parseRoutineFile, routineFileText } from '../../src/navigation/routines/routineFile';
import { braceProblem, fillText, parameterize, placeholders } from '../../src/navigation/store/routineText';
import { describeStep } from '../../src/navigation/routines/stepWords';
import { mergeDocuments } from '../../src/navigation/store/brainMerge';
import { migrateDocument } from '../../src/navigation/store/brainMigrations';
import { validateDocument } from '../../src/navigation/store/brainValidation';
import { addRoutine, editRoutine, forgetRoutine, proposeChange, recordRoutineRun, requireRoutine, routineIdOf, routineTrusted } from '../../src/navigation/store/routineRecords';
import type { RoutineAnchors, RoutineStep } from '../../src/navigation/store/routineTypes';
import { routineTools } from '../../src/mcp/server/serverRoutineTools';
import { documentOf, T0 } from './support/brainFixtures';

const win = { app: 'Mousepad', title: 'Untitled 1 - Mousepad' };
let clock = 0;
const key = (k: string, text?: string, modifiers: Modifier[] = []): Observation => ({
  kind: 'key',
  input: { kind: 'key', key: k, ...(text !== undefined ? { text } : {}), modifiers, seenAt: ++clock, serverTime: clock * 100 },
  window: win,
  field: { role: 'text', name: 'Search for', ancestors: [] },
  secret: false,
});
const typed = (text: string): Observation[] => [...text].map((c) => key(c === ' ' ? 'space' : c.toLowerCase(), c, c !== c.toLowerCase() ? ['shift'] : []));
const anchorsFor = (name: string): RoutineAnchors => ({ window: win, element: { role: 'push button', name, ancestors: [] }, label: name, landmarks: [], point: { x: 10, y: 10 } });
const click = (name: string, at = { x: 10, y: 10 }, serverTime = ++clock * 1000): Observation => ({
  kind: 'click',
  input: { kind: 'button', button: 'left', at, modifiers: [], seenAt: serverTime, serverTime } as RecordedInput & { kind: 'button' },
  anchors: anchorsFor(name),
});

function steps(): RoutineStep[] {
  return compileSteps([key('h', undefined, ['ctrl']), ...typed('cat'), key('tab'), ...typed('dog'), click('Replace All')]).steps;
}

describe('routines', function () {
  it('compiles typing into one entry per field, chords and special keys into key steps, drops a lone shift', function () {
    const compiled = compileSteps([key('shift'), key('super'), key('h', undefined, ['ctrl']), ...typed('Caz'), key('backspace'), key('t', 't'), key('enter'), key('tab'), click('OK')]);
    assert.deepEqual(compiled.steps.map(describeStep), ['press super (Mousepad)', 'press ctrl+h (Mousepad)', 'type "Cat" into "Search for" + enter', 'press tab (Mousepad)', 'click "OK" (push button, Mousepad)']);
    assert.deepEqual(compiled.typed, ['Cat']);
  });

  it('makes a double click of two quick clicks at one place, and two steps of clicks apart', function () {
    const double = compileSteps([click('A', { x: 5, y: 5 }, 1000), click('A', { x: 6, y: 5 }, 1200)]).steps;
    assert.equal(double.length, 1);
    assert.equal(double[0]!.kind === 'click' && double[0]!.double, true);
    assert.equal(compileSteps([click('A', { x: 5, y: 5 }, 1000), click('A', { x: 5, y: 5 }, 2000)]).steps.length, 2);
  });

  it('records a secret field as a secret: its length, never its text', function () {
    const secret = [...'hunter2'].map((c) => ({ ...key(c, c), secret: true }) as Observation);
    const [step] = compileSteps(secret).steps;
    assert.deepEqual(step && step.kind === 'type' ? [step.text, step.secret, step.length] : [], [undefined, true, 7]);
    assert.ok(!JSON.stringify(step).includes('hunter2'));
  });

  it('fills, finds and escapes parameters in typed text', function () {
    assert.deepEqual(placeholders('From {who} to {whom}, {who}'), ['who', 'whom']);
    assert.equal(fillText('a {x} {{b}}', { x: 'Z' }), 'a Z {b}');
    assert.throws(() => fillText('{x}', {}, 'steps.2.text'), (e) => isGaiError(e, 'INVALID_INPUT') && /steps\.2\.text: no value for the parameter \{x\}/.test(e.message));
    assert.equal(parameterize('cat and cat {cat}', 'cat', 'animal'), '{animal} and {animal} {cat}');
    assert.match(braceProblem('a { b') ?? '', /lone "\{"/);
  });

  it('turns typed texts into parameters, runs with given values or the recorded ones, and names a bad one', function () {
    const document = documentOf([]);
    addRoutine(document, { name: 'Replace words', steps: steps() }, T0);
    editRoutine(document, 'replace-words', { kind: 'parameter', name: 'find', value: 'cat' }, T0 + 1);
    const routine = editRoutine(document, 'Replace words', { kind: 'parameter', name: 'replace', value: 'dog' }, T0 + 2);
    assert.deepEqual(routine.steps.filter((s) => s.kind === 'type').map((s) => (s.kind === 'type' ? s.text : '')), ['{find}', '{replace}']);
    assert.equal(routine.revision, 3);
    assert.deepEqual(parameterValues(routine, { find: 'bird' }), { find: 'bird', replace: 'dog' });
    assert.throws(() => parameterValues(routine, { colour: 'red' }), (e) => isGaiError(e, 'INVALID_INPUT') && /params\.colour: "Replace words" has no such parameter \(it has find, replace\)/.test(e.message));
    assert.throws(() => editRoutine(document, 'replace-words', { kind: 'parameter', name: 'other', value: 'fish' }, T0), (e) => isGaiError(e, 'INVALID_INPUT') && /value: no step typed "fish" \(typed: "\{find\}", "\{replace\}"\)/.test(e.message));
    assert.throws(() => editRoutine(document, 'replace-words', { kind: 'parameter', name: 'Bad-Name', value: 'cat' }, T0), (e) => isGaiError(e, 'INVALID_INPUT') && /^parameter: "Bad-Name"/.test(e.message));
    assert.ok(validateDocument(document).ok);
  });

  it('edits steps: optional, move, delete (dropping a parameter no step uses), rename with a new id', function () {
    const document = documentOf([]);
    addRoutine(document, { name: 'Replace words', steps: steps() }, T0);
    editRoutine(document, 'replace-words', { kind: 'parameter', name: 'find', value: 'cat' }, T0);
    editRoutine(document, 'replace-words', { kind: 'optional', step: 3, optional: true }, T0);
    editRoutine(document, 'replace-words', { kind: 'move-step', step: 5, to: 1 }, T0);
    let routine = editRoutine(document, 'replace-words', { kind: 'delete-step', step: 3 }, T0);
    assert.deepEqual(routine.steps.map(describeStep), ['click "Replace All" (push button, Mousepad)', 'press ctrl+h (Mousepad)', 'press tab (Mousepad) [optional]', 'type "dog" into "Search for"']);
    assert.deepEqual(routine.parameters, []);
    routine = editRoutine(document, 'replace-words', { kind: 'rename', name: 'Swap Words' }, T0 + 5);
    assert.equal(routine.id, 'swap-words');
    assert.ok(document.forgotten.some((t) => t.kind === 'routine' && t.id === 'replace-words'));
    assert.throws(() => editRoutine(document, 'swap-words', { kind: 'delete-step', step: 9 }, T0), (e) => isGaiError(e, 'INVALID_INPUT') && /step: no step 9 in "Swap Words" \(it has 4\)/.test(e.message));
    assert.throws(() => requireRoutine(document, 'nothing'), (e) => isGaiError(e, 'BRAIN_NOT_FOUND') && /known: "Swap Words"/.test(e.message));
    assert.throws(() => addRoutine(document, { name: 'swap words', steps: steps() }, T0), (e) => isGaiError(e, 'INVALID_INPUT') && /exists already/.test(e.message));
  });

  it('counts runs, and an imported routine is untrusted until confirmed', function () {
    const document = documentOf([]);
    const recorded = addRoutine(document, { name: 'Compute', steps: steps() }, T0);
    recordRoutineRun(document, recorded.id, { success: false, failedStep: 2, reason: 'no push button "=" in the tree' }, T0 + 10);
    recordRoutineRun(document, recorded.id, { success: true }, T0 + 20);
    assert.deepEqual([recorded.runs.successes, recorded.runs.failures, recorded.runs.lastFailure?.step], [1, 1, 2]);
    assert.ok(routineTrusted(recorded));
    const file = routineFileText(recorded);
    assert.ok(!file.includes('"crop"'));
    const other = documentOf([]);
    const imported = addImported(other, parseRoutineFile(file), T0);
    assert.equal(imported.origin, 'imported');
    assert.equal(routineTrusted(imported), false);
    assert.equal(routineTrusted(editRoutine(other, 'compute', { kind: 'confirm' }, T0)), true);
    assert.throws(() => parseRoutineFile('{"gaiRoutine":1,"routine":{"name":""}}'), (e) => isGaiError(e, 'INVALID_INPUT') && /^file\.routine/.test(e.message));
    assert.throws(() => parseRoutineFile('nope'), (e) => isGaiError(e, 'INVALID_INPUT') && /^file: not JSON/.test(e.message));
  });

  it('rejects a stored routine whose text uses an undeclared parameter, naming the field', function () {
    const document = documentOf([]);
    const routine = addRoutine(document, { name: 'R', steps: steps() }, T0);
    const step = routine.steps[1]!;
    if (step.kind === 'type') step.text = 'Hello {name}';
    const checked = validateDocument(document);
    assert.equal(checked.ok, false);
    assert.match(checked.ok ? '' : checked.errors.join('\n'), /routines\.0\.steps\.1\.text: \{name\} is not one of the routine's parameters/);
  });

  it('migrates a version 2 brain to one with no routines, and merges routines by revision with forgets kept', function () {
    const v2 = { ...documentOf([]), version: 2 } as Record<string, unknown>;
    delete v2.routines;
    const migrated = migrateDocument(v2, { now: T0 });
    assert.deepEqual((migrated.document as { routines: unknown[] }).routines, []);
    const base = documentOf([]);
    addRoutine(base, { name: 'R', steps: steps() }, T0);
    const other = structuredClone(base);
    editRoutine(other, 'r', { kind: 'optional', step: 1, optional: true }, T0 + 100);
    recordRoutineRun(base, 'r', { success: true }, T0 + 50);
    const merged = mergeDocuments(base, other);
    assert.equal(merged.routines[0]!.steps[0]!.optional, true);
    assert.equal(merged.routines[0]!.runs.successes, 1);
    forgetRoutine(other, 'r', T0 + 200);
    assert.deepEqual(mergeDocuments(base, other).routines, []);
  });

  it('keeps a replay\'s proposed change apart until the person accepts or rejects it', function () {
    const document = documentOf([]);
    const routine = addRoutine(document, { name: 'R', steps: steps() }, T0);
    const last = routine.steps.at(-1)!;
    const shown: RoutineStep = { id: 'new', kind: 'click', button: 'left', anchors: anchorsFor('Replace all occurrences') };
    proposeChange(document, 'r', { stepId: last.id, step: shown, reason: 'no push button "Replace All"', by: 'person', at: new Date(T0 + 5).toISOString() });
    assert.equal(describeStep(routine.steps.at(-1)!), 'click "Replace All" (push button, Mousepad)');
    assert.ok(validateDocument(document).ok);
    assert.throws(() => editRoutine(document, 'r', { kind: 'accept', step: 1 }, T0), (e) => isGaiError(e, 'INVALID_INPUT') && /no change is proposed for step 1/.test(e.message));
    const accepted = editRoutine(document, 'r', { kind: 'accept', step: routine.steps.length }, T0 + 10);
    assert.equal(describeStep(accepted.steps.at(-1)!), 'click "Replace all occurrences" (push button, Mousepad)');
    assert.equal(accepted.steps.at(-1)!.id, last.id);
    assert.deepEqual(accepted.proposals, []);
    proposeChange(document, 'r', { stepId: last.id, step: shown, reason: 'again', by: 'person', at: new Date(T0 + 20).toISOString() });
    assert.deepEqual(editRoutine(document, 'r', { kind: 'reject', step: routine.steps.length }, T0 + 30).proposals, []);
  });

  it('offers one MCP tool per routine with its parameters in the schema', function () {
    const document = documentOf([]);
    addRoutine(document, { name: 'Replace words', steps: steps() }, T0);
    editRoutine(document, 'replace-words', { kind: 'parameter', name: 'find', value: 'cat', description: 'the word to find' }, T0);
    const [tool] = routineTools(document, new Set(['click']));
    assert.equal(tool?.name, 'run_replace_words');
    assert.deepEqual(tool?.tool.inputSchema, { type: 'object', properties: { find: { type: 'string', description: 'the word to find' } }, additionalProperties: false });
    assert.equal(routineIdOf('Zoë’s Report — März'), 'zoe-s-report-marz');
  });
});
