import { strict as assert } from 'node:assert';
import { canonicalKey, describeCombo, keystrokeFor, resolveCombo } from '../../src/desktop/input/keys';
import type { KeyCombo, Modifier } from '../../src/desktop/ports/inputPort';

/** Modifiers as a sorted list, since their order in the combo carries no meaning. */
function normalized(combo: KeyCombo): { modifiers: Modifier[]; key: string } {
  return { modifiers: [...combo.modifiers].sort(), key: combo.key };
}

describe('keys', () => {
  describe('resolveCombo', () => {
    const cases: Array<[string, Modifier[], string]> = [
      ['ctrl+s', ['ctrl'], 's'],
      ['command+shift+t', ['command', 'shift'], 't'],
      ['Ctrl+S', ['ctrl'], 's'],
      ['ctrl + s', ['ctrl'], 's'],
      // A shifted symbol is Shift plus its base key on a US layout.
      ['ctrl++', ['ctrl', 'shift'], 'equal'],
      ['+', ['shift'], 'equal'],
      ['ctrl+-', ['ctrl'], 'minus'],
      ['F5', [], 'f5'],
      ['f24', [], 'f24'],
      ['Return', [], 'enter'],
      ['esc', [], 'escape'],
      ['cmd+option+pgdn', ['alt', 'command'], 'pagedown'],
      ['a', [], 'a'],
      ['7', [], '7'],
    ];
    for (const [text, modifiers, key] of cases) {
      it(`"${text}" → ${[...modifiers, key].join('+')}`, () => {
        assert.deepEqual(normalized(resolveCombo(text)), { modifiers: [...modifiers].sort(), key });
      });
    }

    it('merges extra modifiers with those in the string, without duplicates', () => {
      assert.deepEqual(normalized(resolveCombo('ctrl+s', ['shift', 'ctrl'])), { modifiers: ['ctrl', 'shift'], key: 's' });
      assert.deepEqual(normalized(resolveCombo('t', ['command', 'shift'])), { modifiers: ['command', 'shift'], key: 't' });
    });

    it('an unknown key is an error naming that key', () => {
      assert.throws(() => resolveCombo('ctrl+nonsense'), /"nonsense" is not a known key/);
      assert.throws(() => resolveCombo('f25'), /"f25"/);
    });

    it('an unknown modifier is an error naming that part', () => {
      assert.throws(() => resolveCombo('hyper+s'), /"hyper" in "hyper\+s" is not a modifier/);
      assert.throws(() => resolveCombo('a+b'), /"a" in "a\+b" is not a modifier/);
    });

    it('an empty key is an error', () => {
      assert.throws(() => resolveCombo('  '), /names no key/);
    });

    it('"ctrl+" is rejected or keeps ctrl, never silently drops the modifier', () => {
      let combo: KeyCombo | undefined;
      try {
        combo = resolveCombo('ctrl+');
      } catch {
        return; // rejecting the malformed combo is fine
      }
      assert.ok(combo.modifiers.includes('ctrl'), `got ${describeCombo(combo)}`);
    });

    it('describeCombo writes modifiers then the key', () => {
      assert.equal(describeCombo(resolveCombo('ctrl+shift+t')), 'ctrl+shift+t');
    });
  });

  describe('keystrokeFor', () => {
    // The expected US-layout strokes, written out independently of the table in keys.ts.
    const expected: Record<string, [string, boolean]> = {
      H: ['h', true], e: ['e', false], l: ['l', false], o: ['o', false], ',': ['comma', false], ' ': ['space', false],
      W: ['w', true], r: ['r', false], d: ['d', false], '!': ['1', true], '@': ['2', true], '#': ['3', true],
      $: ['4', true], '%': ['5', true], '^': ['6', true], '&': ['7', true], '*': ['8', true], '(': ['9', true],
      ')': ['0', true], _: ['minus', true], '+': ['equal', true], '{': ['leftbracket', true], '}': ['rightbracket', true],
      '|': ['backslash', true], ':': ['semicolon', true], '"': ['quote', true], '<': ['comma', true], '>': ['period', true],
      '?': ['slash', true], '~': ['grave', true],
    };
    const sample = 'Hello, World! @#$%^&*()_+{}|:"<>?~';

    for (const char of new Set(sample)) {
      it(`types ${JSON.stringify(char)}`, () => {
        const want = expected[char];
        assert.ok(want, `the test table lacks ${char}`);
        assert.deepEqual(keystrokeFor(char), { key: want[0], shift: want[1] });
      });
    }

    it('every printable ASCII character maps to a real key', () => {
      for (let code = 32; code <= 126; code++) {
        const char = String.fromCharCode(code);
        const stroke = keystrokeFor(char);
        assert.ok(stroke, `no keystroke for ${JSON.stringify(char)}`);
        assert.equal(canonicalKey(stroke.key), stroke.key, `${JSON.stringify(char)} maps to "${stroke.key}", not a canonical key`);
      }
    });

    it('unshifted symbols need no shift', () => {
      for (const [char, key] of [['-', 'minus'], ['=', 'equal'], ['.', 'period'], ['/', 'slash'], [';', 'semicolon'], ["'", 'quote'], ['`', 'grave'], ['[', 'leftbracket'], [']', 'rightbracket'], ['\\', 'backslash']] as const) {
        assert.deepEqual(keystrokeFor(char), { key, shift: false }, char);
      }
    });

    it('newline and tab are Enter and Tab', () => {
      assert.deepEqual(keystrokeFor('\n'), { key: 'enter', shift: false });
      assert.deepEqual(keystrokeFor('\t'), { key: 'tab', shift: false });
    });

    it('characters outside US ASCII are not typeable as keystrokes (they get pasted)', () => {
      assert.equal(keystrokeFor('é'), undefined);
      assert.equal(keystrokeFor('€'), undefined);
      assert.equal(keystrokeFor('ß'), undefined);
    });
  });

  describe('canonicalKey', () => {
    it('knows aliases and rejects non-keys', () => {
      assert.equal(canonicalKey('ArrowUp'), 'up');
      assert.equal(canonicalKey('Del'), 'delete');
      assert.equal(canonicalKey('spacebar'), 'space');
      assert.equal(canonicalKey('nonsense'), undefined);
      // "+" is a shifted symbol, not a key of its own.
      assert.equal(canonicalKey('+'), undefined);
    });
  });
});
