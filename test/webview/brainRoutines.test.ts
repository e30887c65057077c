// The brain panel's routines, host side, with the fake VS Code side of brainFakes.ts: the view
// model (steps in words, proposals under their steps, no picture data), the messages' validation
// (every bad field named), and each change: confirmed or asked for where it should be, refused
// with the records' error and nothing written, or written and the new state sent to the view.
import { strict as assert } from 'node:assert';
import { MemoryLogger } from '../../src/common/logger';
import type { RoutineView } from '../../src/shared/brainProtocol';
import { BrainController } from '../../src/vscode/brain/brainController';
import { parseBrainViewMessage } from '../../src/vscode/brain/brainMessages';
import { parameterNameProblem, routineNameProblem } from '../../src/vscode/brain/routineActions';
import { buildRoutineViews, cropToken, MAX_SHOWN_ROUTINES, routineCropSrcs } from '../../src/vscode/brain/routineViewModel';
import { FakeHost, FakeSource } from './brainFakes';
import { importedRoutine, replaceWordsRoutine, routinesBrain, TINY_PNG } from './routineViewFixtures';

const OTHER_PNG = { ...TINY_PNG, data: `${TINY_PNG.data.slice(0, -4)}AAA=` };

describe('brain view routines: the view model', () => {
  it('lists routines by name with their steps in words, parameters, runs, trust and proposals', () => {
    const { routines, total } = buildRoutineViews(routinesBrain({ button: TINY_PNG, proposal: OTHER_PNG }));
    assert.equal(total, 2);
    assert.deepEqual(routines.map((r) => [r.id, r.origin, r.trusted]), [['replace-words', 'recorded', true], ['save-as-pdf', 'imported', false]]);
    const replace = routines[0] as RoutineView;
    assert.deepEqual(replace.parameters, [{ name: 'find', description: 'The word to look for', default: 'cat', secret: false }, { name: 'replace', default: 'dog', secret: false }]);
    assert.deepEqual(replace.steps.map((s) => [s.words, s.optional, s.typesText]), [
      ['press ctrl+h (mousepad)', false, false],
      ['type "{find}" into "Search for"', false, true],
      ['type "{replace} and more" into "Replace with" + enter', false, true],
      ['click "Replace All" (push button, mousepad)', false, false],
      ['click "Close" (push button, mousepad)', true, false],
    ]);
    assert.deepEqual(replace.steps[3]?.proposal, { by: 'person', words: 'click "Replace all" (push button, mousepad)', reason: '"Replace All" was not found in mousepad', at: '2025-03-01T10:00:00.000Z', crop: cropToken(OTHER_PNG) });
    assert.equal(replace.steps[3]?.crop, cropToken(TINY_PNG));
    assert.equal(replace.steps[1]?.crop, undefined);
    assert.deepEqual(replace.runs, { successes: 3, failures: 1, lastRunAt: '2025-03-01T10:00:00.000Z', lastFailure: 'step 4 (click "Replace All"): not found (2025-03-01T10:00:00.000Z)' });
    assert.equal(JSON.stringify(routines).includes(TINY_PNG.data), false, 'no picture data in the routines message');
  });

  it('shortens long defaults, hides secrets, and bounds the list', () => {
    const document = routinesBrain();
    const routine = document.routines[0]!;
    routine.parameters = [{ name: 'long', default: 'x'.repeat(500) }, { name: 'password', secret: true, default: 'hunter2' }];
    const [view] = buildRoutineViews({ routines: [routine] }).routines;
    assert.equal(view?.parameters[0]?.default?.length, 200);
    assert.deepEqual(view?.parameters[1], { name: 'password', secret: true });
    const many = Array.from({ length: MAX_SHOWN_ROUTINES + 5 }, (_, i) => ({ ...importedRoutine(), id: `r-${i}`, name: `R ${i}` }));
    const bounded = buildRoutineViews({ routines: many });
    assert.deepEqual([bounded.routines.length, bounded.total, bounded.routines[2]?.name], [MAX_SHOWN_ROUTINES, MAX_SHOWN_ROUTINES + 5, 'R 2']);
  });

  it('finds crops by token, steps\' and proposals\', null for an unknown one', () => {
    const document = routinesBrain({ search: TINY_PNG, proposal: OTHER_PNG });
    const unknown = '0123456789abcdef';
    assert.deepEqual(routineCropSrcs(document, [cropToken(OTHER_PNG), unknown, cropToken(TINY_PNG)]), [
      { crop: cropToken(OTHER_PNG), src: `data:image/png;base64,${OTHER_PNG.data}` },
      { crop: unknown, src: null },
      { crop: cropToken(TINY_PNG), src: `data:image/png;base64,${TINY_PNG.data}` },
    ]);
    assert.match(cropToken(TINY_PNG), /^[0-9a-f]{16}$/);
    assert.notEqual(cropToken(TINY_PNG), cropToken(OTHER_PNG));
  });
});

describe('brain view routines: message validation', () => {
  const valid: unknown[] = [
    { type: 'runRoutine', id: 'replace-words' },
    { type: 'renameRoutine', id: 'replace-words' },
    { type: 'renameRoutine', id: 'replace-words', name: 'Swap words' },
    { type: 'exportRoutine', id: 'replace-words' },
    { type: 'forgetRoutine', id: 'replace-words' },
    { type: 'confirmRoutine', id: 'save-as-pdf' },
    { type: 'stepOptional', id: 'replace-words', step: 's-all', optional: true },
    { type: 'moveStep', id: 'replace-words', step: 's-all', to: 1 },
    { type: 'deleteStep', id: 'replace-words', step: 's-all' },
    { type: 'makeParameter', id: 'replace-words', step: 's-replace' },
    { type: 'makeParameter', id: 'replace-words', step: 's-replace', value: 'more', name: 'tail' },
    { type: 'editParameter', id: 'replace-words', name: 'find' },
    { type: 'editParameter', id: 'replace-words', name: 'find', rename: 'word', description: '', default: 'bird' },
    { type: 'removeParameter', id: 'replace-words', name: 'find' },
    { type: 'acceptProposal', id: 'replace-words', step: 's-all' },
    { type: 'rejectProposal', id: 'replace-words', step: 's-all' },
    { type: 'routineCrops', crops: ['0123456789abcdef'] },
  ];
  for (const message of valid) {
    it(`accepts ${JSON.stringify(message).slice(0, 90)}`, () => {
      const parsed = parseBrainViewMessage(message);
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
      assert.deepEqual(parsed.message, message);
    });
  }

  const invalid: Array<[string, unknown, RegExp[]]> = [
    ['a routine message without id', { type: 'runRoutine' }, [/"runRoutine" message: id: required field/]],
    ['a path for an id', { type: 'exportRoutine', id: '../../etc/passwd' }, [/id: /]],
    ['an upper-case id', { type: 'forgetRoutine', id: 'Replace-Words' }, [/id: /]],
    ['a blank new name', { type: 'renameRoutine', id: 'r', name: '   ' }, [/name: /]],
    ['a name too long', { type: 'renameRoutine', id: 'r', name: 'x'.repeat(101) }, [/name: must have at most 100/]],
    ['optional as a string', { type: 'stepOptional', id: 'r', step: 's1', optional: 'yes' }, [/optional: expected a boolean/]],
    ['every bad field of a move', { type: 'moveStep', id: 'R!', step: 'a b', to: 0 }, [/id: /, /step: /, /to: must be at least 1/]],
    ['a fractional place', { type: 'moveStep', id: 'r', step: 's1', to: 1.5 }, [/to: expected an integer/]],
    ['a step without id', { type: 'deleteStep', id: 'r' }, [/step: required field/]],
    ['an empty parameter value', { type: 'makeParameter', id: 'r', step: 's1', value: '' }, [/value: must have at least 1/]],
    ['a parameter edit with a number', { type: 'editParameter', id: 'r', name: 'find', default: 7 }, [/default: expected a string/]],
    ['an extra field', { type: 'acceptProposal', id: 'r', step: 's1', step2: 's2' }, [/step2: unknown field/]],
    ['a crop request without tokens', { type: 'routineCrops', crops: [] }, [/crops: must have at least 1/]],
    ['a crop request with a URL', { type: 'routineCrops', crops: ['https://x.example/a.png'] }, [/crops\.0: /]],
  ];
  for (const [what, message, errors] of invalid) {
    it(`rejects ${what}, naming the field`, () => {
      const parsed = parseBrainViewMessage(message);
      assert.equal(parsed.ok, false);
      for (const error of errors) if (!parsed.ok) assert.match(parsed.error, error);
    });
  }
});

describe('brain view routines: the controller', () => {
  let source: FakeSource;
  let host: FakeHost;
  let logger: MemoryLogger;
  let controller: BrainController;
  const routine = (id = 'replace-words') => source.doc.routines.find((r) => r.id === id);
  const lastRoutines = () => host.routineLists().at(-1)?.routines ?? [];
  const lastRoutine = (id = 'replace-words') => lastRoutines().find((r) => r.id === id);

  beforeEach(() => {
    source = new FakeSource();
    source.doc = routinesBrain({ button: TINY_PNG });
    host = new FakeHost();
    logger = new MemoryLogger();
    controller = new BrainController(source, host, logger);
  });

  /** Nothing was written, nothing asked past the error, and the records' error was shown. */
  const refused = (error: RegExp) => {
    assert.deepEqual(source.calls, []);
    assert.equal(host.errors.length, 1, host.errors.join('\n'));
    assert.match(host.errors[0] ?? '', error);
  };

  it('sends the routines after each graph, and answers crop requests by token', async () => {
    await controller.receive({ type: 'ready' });
    assert.deepEqual(host.posted.map((m) => m.type), ['graph', 'routines']);
    assert.deepEqual(lastRoutines().map((r) => r.name), ['Replace words', 'Save as PDF']);
    host.posted = [];
    await controller.receive({ type: 'routineCrops', crops: [cropToken(TINY_PNG), 'ffffffffffffffff'] });
    assert.deepEqual(host.posted, [{ type: 'routineCrops', crops: [{ crop: cropToken(TINY_PNG), src: `data:image/png;base64,${TINY_PNG.data}` }, { crop: 'ffffffffffffffff', src: null }] }]);
  });

  it('answers crop requests with null when the brain cannot be read', async () => {
    source.failWith = new Error('brain.json: locked');
    await controller.receive({ type: 'routineCrops', crops: ['ffffffffffffffff'] });
    assert.deepEqual([host.posted, host.errors], [[{ type: 'routineCrops', crops: [{ crop: 'ffffffffffffffff', src: null }] }], []]);
  });

  it('rejects malformed routine messages without reading or writing', async () => {
    for (const raw of [{ type: 'moveStep', id: 'replace-words', step: 's-all' }, { type: 'deleteStep', id: 'replace-words', step: 7 }, { type: 'forgetRoutine', id: '' }]) await controller.receive(raw);
    assert.equal(controller.rejectedMessages, 3);
    assert.deepEqual([host.posted, host.questions, source.calls, source.reads], [[], [], [], 0]);
  });

  it('toggles a step optional and sends the new state', async () => {
    await controller.receive({ type: 'stepOptional', id: 'replace-words', step: 's-all', optional: true });
    assert.deepEqual(source.calls, ['editRoutine replace-words {"kind":"optional","step":"s-all","optional":true}']);
    assert.equal(routine()?.steps[3]?.optional, true);
    assert.equal(lastRoutine()?.steps[3]?.optional, true);
    await controller.receive({ type: 'stepOptional', id: 'replace-words', step: 's-close', optional: false });
    assert.equal(lastRoutine()?.steps[4]?.optional, false);
    assert.deepEqual([host.questions, host.errors], [[], []]);
  });

  it('moves a step; a place out of range is the records\' error, nothing written', async () => {
    await controller.receive({ type: 'moveStep', id: 'replace-words', step: 's-all', to: 1 });
    assert.deepEqual(lastRoutine()?.steps.map((s) => s.id), ['s-all', 's-open', 's-find', 's-replace', 's-close']);
    source.calls = [];
    await controller.receive({ type: 'moveStep', id: 'replace-words', step: 's-all', to: 9 });
    refused(/^GAI Brain: to: no step 9 in "Replace words" \(it has 5\)$/);
    assert.equal(host.routineLists().length, 2, 'the view gets the state again after the error');
  });

  it('deletes a step only after the question; declined, nothing changes', async () => {
    host.answer = false;
    await controller.receive({ type: 'deleteStep', id: 'replace-words', step: 's-close' });
    assert.deepEqual(host.questions, [{ message: 'Delete step 5 of "Replace words"?', detail: '"click "Close" (push button, mousepad)" is removed from the routine. This cannot be undone.', action: 'Delete' }]);
    assert.deepEqual([source.calls, host.posted], [[], []]);
    host.answer = true;
    await controller.receive({ type: 'deleteStep', id: 'replace-words', step: 's-close' });
    assert.deepEqual(source.calls, ['editRoutine replace-words {"kind":"delete-step","step":"s-close"}']);
    assert.equal(lastRoutine()?.steps.length, 4);
  });

  it('does not ask about deleting a step that is not there, or the last one', async () => {
    await controller.receive({ type: 'deleteStep', id: 'replace-words', step: 'gone' });
    refused(/step: no step "gone" in "Replace words"/);
    host.errors = [];
    source.doc.routines[0]!.steps = source.doc.routines[0]!.steps.slice(0, 1);
    await controller.receive({ type: 'deleteStep', id: 'replace-words', step: 's-open' });
    refused(/step: a routine keeps at least one step/);
    assert.deepEqual(host.questions, []);
  });

  it('forgets a routine after the question; declined, it stays', async () => {
    host.answer = false;
    await controller.receive({ type: 'forgetRoutine', id: 'replace-words' });
    assert.deepEqual(host.questions[0], { message: 'Forget the routine "Replace words"?', detail: 'Its 5 steps and the record of 4 runs are forgotten; GAI cannot run it any more. This cannot be undone.', action: 'Forget' });
    assert.deepEqual(source.calls, []);
    host.answer = true;
    await controller.receive({ type: 'forgetRoutine', id: 'replace-words' });
    assert.deepEqual(source.calls, ['forgetRoutine replace-words']);
    assert.deepEqual(lastRoutines().map((r) => r.id), ['save-as-pdf']);
    await controller.receive({ type: 'forgetRoutine', id: 'replace-words' });
    assert.match(host.errors[0] ?? '', /name: no routine "replace-words" in the brain \(known: "Save as PDF"\)/);
  });

  it('renames through the input box (checked there), or with the name the view sent', async () => {
    host.texts = [undefined];
    await controller.receive({ type: 'renameRoutine', id: 'replace-words' });
    assert.deepEqual([source.calls, host.posted], [[], []]);
    const request = host.textRequests[0];
    assert.equal(request?.value, 'Replace words');
    assert.deepEqual([request?.validate?.('Save as PDF!'), request?.validate?.(' '), request?.validate?.('Swap words')], ['A routine "Save as PDF" exists already.', 'Enter a name for this routine.', undefined]);
    host.texts = ['  Swap words '];
    await controller.receive({ type: 'renameRoutine', id: 'replace-words' });
    assert.deepEqual(source.calls, ['editRoutine replace-words {"kind":"rename","name":"Swap words"}']);
    assert.deepEqual(lastRoutines().map((r) => [r.id, r.name]), [['save-as-pdf', 'Save as PDF'], ['swap-words', 'Swap words']]);
    await controller.receive({ type: 'renameRoutine', id: 'swap-words', name: 'Save as PDF' });
    assert.match(host.errors[0] ?? '', /^GAI Brain: name: a routine "Save as PDF" exists already$/);
    assert.equal(source.calls.length, 1);
  });

  it('makes a typed text a parameter: asks the text, then the name; a bad name is the records\' error', async () => {
    host.texts = ['more', 'tail'];
    await controller.receive({ type: 'makeParameter', id: 'replace-words', step: 's-replace' });
    assert.deepEqual(host.textRequests.map((r) => r.value), [' and more', 'more']);
    assert.equal(host.textRequests[0]?.prompt, 'Step 3 types "and more": the part that changes between runs');
    assert.deepEqual([host.textRequests[1]?.validate?.('Tail'), host.textRequests[1]?.validate?.('find'), host.textRequests[1]?.validate?.('tail')], [
      'A lower-case letter, then a-z, 0-9 or _ (at most 40).',
      '"Replace words" has a parameter {find} already.',
      undefined,
    ]);
    assert.deepEqual(source.calls, ['editRoutine replace-words {"kind":"parameter","name":"tail","value":"more","step":"s-replace"}']);
    assert.deepEqual(lastRoutine()?.parameters.map((p) => p.name), ['find', 'replace', 'tail']);
    assert.equal(lastRoutine()?.steps[2]?.words, 'type "{replace} and {tail}" into "Replace with" + enter');

    source.calls = [];
    await controller.receive({ type: 'makeParameter', id: 'replace-words', step: 's-replace', value: 'and', name: 'Bad Name' });
    refused(/^GAI Brain: parameter: "Bad Name" must start with a lower-case letter/);
    host.errors = [];
    await controller.receive({ type: 'makeParameter', id: 'replace-words', step: 's-open', value: 'h', name: 'key' });
    refused(/^GAI Brain: step: step 1 of "Replace words" types no text that could become a parameter$/);
    host.errors = [];
    await controller.receive({ type: 'makeParameter', id: 'replace-words', step: 's-replace', value: 'nowhere', name: 'x' });
    refused(/^GAI Brain: value: no step "s-replace" typed "nowhere"/);
  });

  it('cancelling the parameter\'s name writes nothing', async () => {
    host.texts = ['more', undefined];
    await controller.receive({ type: 'makeParameter', id: 'replace-words', step: 's-replace' });
    assert.deepEqual([source.calls, host.posted, host.textRequests.length], [[], [], 2]);
  });

  it('edits a parameter through three prefilled boxes; only what changed is written; a cancel writes nothing', async () => {
    host.texts = ['word', undefined];
    await controller.receive({ type: 'editParameter', id: 'replace-words', name: 'find' });
    assert.deepEqual(host.textRequests.map((r) => r.value), ['find', 'The word to look for']);
    assert.deepEqual(source.calls, []);

    host.textRequests = [];
    host.texts = ['word', 'The word to look for', 'bird'];
    await controller.receive({ type: 'editParameter', id: 'replace-words', name: 'find' });
    assert.deepEqual(host.textRequests.map((r) => r.value), ['find', 'The word to look for', 'cat']);
    assert.deepEqual(source.calls, ['editRoutine replace-words {"kind":"edit-parameter","name":"find","rename":"word","default":"bird"}']);
    assert.deepEqual(lastRoutine()?.parameters[0], { name: 'word', description: 'The word to look for', default: 'bird', secret: false });
    assert.equal(lastRoutine()?.steps[1]?.words, 'type "{word}" into "Search for"');

    source.calls = [];
    await controller.receive({ type: 'editParameter', id: 'replace-words', name: 'word', rename: 'replace' });
    refused(/^GAI Brain: rename: "replace" exists already$/);
    host.errors = [];
    await controller.receive({ type: 'editParameter', id: 'replace-words', name: 'nope' });
    refused(/^GAI Brain: parameter: "Replace words" has no parameter "nope" \(it has word, replace\)$/);
  });

  it('removes a parameter after the question', async () => {
    host.answer = false;
    await controller.receive({ type: 'removeParameter', id: 'replace-words', name: 'find' });
    assert.deepEqual(host.questions[0], { message: 'Remove the parameter {find} from "Replace words"?', detail: 'Its steps type "cat" again, as recorded, and a run no longer asks for it.', action: 'Remove' });
    assert.deepEqual(source.calls, []);
    host.answer = true;
    await controller.receive({ type: 'removeParameter', id: 'replace-words', name: 'find' });
    assert.equal(lastRoutine()?.steps[1]?.words, 'type "cat" into "Search for"');
  });

  it('accepts a proposal (the step is replaced, kept where it was) and rejects one (dropped)', async () => {
    await controller.receive({ type: 'acceptProposal', id: 'replace-words', step: 's-all' });
    assert.deepEqual(source.calls, ['editRoutine replace-words {"kind":"accept","step":"s-all"}']);
    const step = lastRoutine()?.steps[3];
    assert.deepEqual([step?.id, step?.words, step?.proposal, step?.crop], ['s-all', 'click "Replace all" (push button, mousepad)', undefined, undefined]);
    await controller.receive({ type: 'rejectProposal', id: 'replace-words', step: 's-all' });
    assert.match(host.errors[0] ?? '', /^GAI Brain: step: no change is proposed for step 4 of "Replace words"$/);

    source.doc = routinesBrain();
    await controller.receive({ type: 'rejectProposal', id: 'replace-words', step: 's-all' });
    assert.deepEqual([lastRoutine()?.steps[3]?.words, lastRoutine()?.steps[3]?.proposal], ['click "Replace All" (push button, mousepad)', undefined]);
  });

  it('trusts an imported routine after the question; declined, it still asks', async () => {
    host.answer = false;
    await controller.receive({ type: 'confirmRoutine', id: 'save-as-pdf' });
    assert.equal(host.questions[0]?.message, 'Trust the routine "Save as PDF"?');
    assert.match(host.questions[0]?.detail ?? '', /GAI asks before each of its 2 steps/);
    assert.deepEqual(source.calls, []);
    host.answer = true;
    await controller.receive({ type: 'confirmRoutine', id: 'save-as-pdf' });
    assert.deepEqual(source.calls, ['editRoutine save-as-pdf {"kind":"confirm"}']);
    assert.equal(lastRoutine('save-as-pdf')?.trusted, true);
    await controller.receive({ type: 'confirmRoutine', id: 'replace-words' });
    assert.equal(host.questions.length, 2, 'a recorded routine is trusted already');
  });

  it('exports the readable file through the save dialog, pictures left out', async () => {
    await controller.receive({ type: 'exportRoutine', id: 'replace-words' });
    const [save] = host.saves;
    assert.equal(save?.name, 'replace-words.gai-routine.json');
    const file = JSON.parse(save?.text ?? '{}') as { gaiRoutine: number; routine: { name: string; steps: Array<{ anchors: object }> } };
    assert.deepEqual([file.gaiRoutine, file.routine.name, file.routine.steps.some((s) => 'crop' in s.anchors)], [1, 'Replace words', false]);
    assert.deepEqual(host.infos, ['GAI saved "Replace words" to /home/me/replace-words.gai-routine.json.']);
    host.savedTo = undefined;
    await controller.receive({ type: 'exportRoutine', id: 'replace-words' });
    assert.deepEqual([host.saves.length, host.infos.length, source.calls], [2, 1, []]);
  });

  it('runs a routine through the command, then sends its new state', async () => {
    await controller.receive({ type: 'runRoutine', id: 'replace-words' });
    assert.deepEqual([host.runs, host.posted.map((m) => m.type)], [['replace-words'], ['graph', 'routines']]);
    await controller.receive({ type: 'runRoutine', id: 'no-such' });
    assert.deepEqual(host.runs, ['replace-words']);
    assert.match(host.errors[0] ?? '', /name: no routine "no-such"/);
  });

  it('checks names for the input boxes', () => {
    const document = routinesBrain();
    const replace = replaceWordsRoutine();
    assert.deepEqual([routineNameProblem(document, replace, 'x'.repeat(101)), routineNameProblem(document, replace, 'replace WORDS')], ['At most 100 characters (this is 101).', undefined]);
    assert.deepEqual([parameterNameProblem(replace, '9lives'), parameterNameProblem(replace, 'x'.repeat(41)), parameterNameProblem(replace, 'word_2')], [
      'A lower-case letter, then a-z, 0-9 or _ (at most 40).',
      'A lower-case letter, then a-z, 0-9 or _ (at most 40).',
      undefined,
    ]);
  });
});
