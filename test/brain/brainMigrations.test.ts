// Validation that names the bad field, and migration of the seed's storage (version 0).
import * as assert from 'node:assert/strict';
import { isGaiError } from '../../src/common/errors';
import { documentVersion, migrateDocument } from '../../src/navigation/store/brainMigrations';
import { BRAIN_VERSION, LAUNCHER_KEY } from '../../src/navigation/store/brainTypes';
import { validateDocument } from '../../src/navigation/store/brainValidation';
import { documentOf, homePage, networkPage, nodeFor, pathFor, SEED_V0, T0 } from './support/brainFixtures';

const home = nodeFor(homePage());
const network = nodeFor(networkPage());
const valid = () => documentOf([home, network], [pathFor({ id: 'p', from: home.key, to: network.key })]);

function errorsOf(value: unknown): string[] {
  const checked = validateDocument(value);
  assert.equal(checked.ok, false, 'expected invalid');
  return checked.ok ? [] : checked.errors;
}

describe('brain document validation', function () {
  it('accepts a valid document', function () {
    assert.equal(validateDocument(valid()).ok, true);
  });

  it('names the field and the problem', function () {
    const missing = valid() as unknown as { paths: Array<{ metadata: Record<string, unknown> }> };
    delete missing.paths[0]!.metadata.successRate;
    assert.deepEqual(errorsOf(missing), ['paths.0.metadata.successRate: required field is missing (expected a number from 0 to 1)']);

    const badAction = valid();
    (badAction.paths[0]!.actions as unknown[]) = [{ tool: 'type_text', input: {} }, { tool: 'teleport', input: {} }, { tool: 'click', input: { near: 'x' } }];
    assert.deepEqual(errorsOf(badAction), [
      'paths.0.actions.0.input.text: required (or secret: true with a length)',
      'paths.0.actions.1.tool: expected one of "click", "type_text", "press_key", "scroll", "launch_app", "wait", got "teleport"',
      'paths.0.actions.2.input.text: required (or a point)',
      'paths.0.actions.2.input: near and occurrence need text',
    ]);

    const dangling = valid();
    dangling.paths[0]!.to = 'gai-settings::nowhere';
    dangling.nodes.push({ ...dangling.nodes[0]! });
    dangling.nodes[0]!.key = 'wrong';
    const errors = errorsOf(dangling);
    assert.ok(errors.some((e) => e.startsWith('nodes.0.key: expected "gai-settings::')), errors.join('\n'));
    assert.ok(errors.includes('paths.0.to: unknown node "gai-settings::nowhere"'), errors.join('\n'));

    assert.deepEqual(errorsOf({ ...valid(), extra: 1 }), ['extra: unknown field']);
    assert.ok(errorsOf({ ...valid(), updatedAt: 'yesterday' })[0]!.startsWith('updatedAt: '));
  });
});

describe('brain migrations', function () {
  it('recognises versions', function () {
    assert.equal(documentVersion(valid()), BRAIN_VERSION);
    assert.equal(documentVersion(SEED_V0), 0);
    assert.equal(documentVersion({ foo: 1 }), undefined);
    assert.throws(() => migrateDocument({ ...valid(), version: 7 }, { now: T0 }), (e) => isGaiError(e, 'BRAIN_VERSION'));
    assert.throws(() => migrateDocument('nope', { now: T0 }), (e) => isGaiError(e, 'BRAIN_INVALID'));
  });

  it('migrates a version 1 document (before screen signatures) as it is: same nodes and paths, valid, signatures come later', function () {
    const v1 = { ...valid(), version: 1 };
    const { document, fromVersion, warnings } = migrateDocument(structuredClone(v1), { now: T0 });
    assert.deepEqual([fromVersion, warnings], [1, []]);
    const checked = validateDocument(document);
    assert.ok(checked.ok, checked.ok ? '' : checked.errors.join('\n'));
    assert.deepEqual(checked.document, { ...v1, version: BRAIN_VERSION });
    assert.ok(checked.document.nodes.every((n) => n.signature === undefined));
  });

  it('migrates the seed storage (version 0) to a valid current document, reporting what it could not keep', function () {
    const { document, fromVersion, warnings } = migrateDocument(structuredClone(SEED_V0), { now: T0 });
    assert.equal(fromVersion, 0);
    const checked = validateDocument(document);
    assert.ok(checked.ok, checked.ok ? '' : checked.errors.join('\n'));
    const doc = checked.document;
    assert.deepEqual(doc.nodes.map((n) => [n.key, n.label]), [
      ['Finder::a3b2c1d4e5f6', 'Finder home'],
      ['Finder::desktop-view', 'Desktop'],
      ['Terminal::main', 'Terminal'],
    ]);
    assert.deepEqual(doc.nodes[0]!.fingerprint.lines, ['favorites', 'desktop', 'documents'], 'fingerprint rebuilt from the OCR text');
    const [first, second] = doc.paths;
    assert.deepEqual(first!.actions, [{ tool: 'click', input: { text: 'Desktop' }, point: { x: 40, y: 120 } }, { tool: 'wait', input: { until: 'settled', timeoutMs: 1000 } }]);
    assert.deepEqual(first!.targets, ['desktop folder in finder']);
    assert.deepEqual([first!.metadata.successes, first!.metadata.failures, first!.metadata.successRate, first!.metadata.lastUsedAt], [4, 1, 0.8, '2025-02-01T00:00:00.000Z']);
    assert.equal(second!.id, 'path-2');
    assert.equal(second!.from, LAUNCHER_KEY);
    assert.deepEqual(second!.actions, [{ tool: 'launch_app', input: { appName: 'Terminal' } }, { tool: 'press_key', input: { key: 'n', modifiers: ['command'] } }]);
    assert.equal(doc.paths.length, 2);
    assert.deepEqual(warnings, ['paths.2.actions.0 (path-3): {"type":"drag","from":1} has no version 1 form; path dropped']);
  });
});
