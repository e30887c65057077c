import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleRequests, keyState, MachineExamples, welcomeView } from '../../src/vscode/setup/setupState';

const entry = (name: string, genericName?: string, terminal = false) => ({ file: `${name}.desktop`, name, ...(genericName ? { genericName } : {}), keywords: [], exec: name.toLowerCase(), ...(terminal ? { terminal } : {}) });

describe('Setup state (the welcome of the empty chat)', function () {
  it('suggests the screen reading, then the installed calculator and text editor (not one that runs in a terminal)', () => {
    const examples = exampleRequests([entry('Vim', 'Text Editor', true), entry('Galculator', 'Scientific calculator'), entry('Mousepad', 'Text Editor')]);
    assert.deepEqual(examples, ['Read the screen and tell me which windows are open', 'Open Galculator and calculate 12 × 7', 'Open Mousepad and type "Hello from GAI"']);
  });

  it('still gives three requests that need no application when none is installed', () => {
    const examples = exampleRequests([]);
    assert.equal(examples.length, 3);
    assert.doesNotMatch(examples.join('\n'), /Open /);
  });

  it('reads the examples from the XDG application folders', async () => {
    const home = await mkdtemp(join(tmpdir(), 'gai-apps-'));
    try {
      await mkdir(join(home, 'applications'));
      await writeFile(join(home, 'applications', 'calc.desktop'), '[Desktop Entry]\nType=Application\nName=SpeedCrunch\nGenericName=Calculator\nExec=speedcrunch\n');
      const examples = await new MachineExamples({ XDG_DATA_HOME: home, XDG_DATA_DIRS: join(home, 'none') }).get();
      assert.equal(examples[1], 'Open SpeedCrunch and calculate 12 × 7');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('says where the key comes from: SecretStorage first, then the provider variable, with the in-memory note', () => {
    assert.deepEqual(keyState('anthropic', true, { ANTHROPIC_API_KEY: 'x' }), { source: 'secretStorage' });
    assert.deepEqual(keyState('anthropic', false, { ANTHROPIC_API_KEY: 'x' }), { source: 'environment', note: 'From ANTHROPIC_API_KEY in the environment VS Code was started from.' });
    assert.deepEqual(keyState('openai', false, { ANTHROPIC_API_KEY: 'x' }), {});
    assert.deepEqual(keyState('anthropic', true, {}, 'in memory only'), { source: 'secretStorage', note: 'in memory only' });
    assert.match(keyState('google', false, { GEMINI_API_KEY: 'g' }, 'in memory only').note ?? '', /GEMINI_API_KEY.*in memory only/);
  });

  it('names the provider default model when none is set', () => {
    assert.equal(welcomeView({ provider: 'anthropic', key: {}, examples: [] }).model, 'claude-sonnet-4-6');
    assert.equal(welcomeView({ provider: 'openai', model: 'gpt-x', key: { source: 'environment' }, examples: [] }).keySource, 'environment');
    assert.equal(welcomeView({ provider: 'ollama', key: {}, examples: [] }).model, '(none: choose a model)');
  });
});
