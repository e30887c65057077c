import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSettings } from '../../src/vscode/settings';

const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as {
  contributes: { configuration: Array<{ title: string; properties: Record<string, { default: unknown }> }> };
};
const sections = manifest.contributes.configuration;
const properties = Object.assign({}, ...sections.map((section) => section.properties)) as Record<string, { default: unknown }>;
/** What VS Code returns when nothing is set: the manifest's defaults. */
const defaults = (overrides: Record<string, unknown> = {}) => (key: string) =>
  Object.hasOwn(overrides, key) ? overrides[key] : properties[`gai.${key}`]?.default;

describe('extension settings (gai.*)', () => {
  it('groups the settings in sections titled "GAI: …", each setting in one', () => {
    assert.ok(sections.length >= 3);
    for (const section of sections) assert.match(section.title, /^GAI: [A-Z]/);
    const keys = sections.flatMap((section) => Object.keys(section.properties));
    assert.equal(new Set(keys).size, keys.length, 'a setting is in two sections');
    assert.ok(keys.every((key) => key.startsWith('gai.')));
  });

  it('a description with Markdown (a `code` span, a link) is a markdownDescription: the Settings editor shows plain descriptions as they are, backticks and all', () => {
    const raw = properties as Record<string, { description?: string; markdownDescription?: string; enumDescriptions?: string[] }>;
    const plainWithMarkdown = Object.entries(raw).filter(([, p]) => /`|\]\(/.test(p.description ?? '')).map(([key]) => key);
    assert.deepEqual(plainWithMarkdown, []);
    assert.match(raw['gai.provider']!.markdownDescription ?? '', /`openai` covers any OpenAI-compatible server/);
  });

  it('parses the manifest defaults', () => {
    const settings = parseSettings(defaults());
    assert.deepEqual(settings, {
      provider: 'anthropic',
      baseUrl: undefined,
      model: { default: undefined, fast: undefined, vision: undefined },
      computerUse: 'auto',
      input: 'pointer',
      desktop: 'auto',
      maxIterations: 10,
      toolProfile: 'standard',
      autoApprove: ['read'],
      alwaysAllowTools: [],
      ocrLanguage: 'eng',
      screenshotMaxWidth: 1280,
      statusBarRefreshSeconds: 0,
      statusBarSummary: 'window',
      keepScreenshots: 3,
      brainThumbnails: true,
      safety: { stopHotkey: { modifiers: ['ctrl', 'alt'], key: 'escape' }, stopHotkeyLabel: 'Ctrl+Alt+Escape', failSafeCorner: true, pauseOnTakeover: true },
      redact: { patterns: [], windowTitles: [] },
      apps: { allow: [], deny: [] },
      launchAllow: [],
      mcpServers: [],
    });
  });

  it('gai.input: the pointer by default, accessibility first when chosen, and nothing else', () => {
    assert.equal(parseSettings(defaults({ input: 'accessibility' })).input, 'accessibility');
    assert.throws(() => parseSettings(defaults({ input: 'keyboard' })), /Setting gai\.input: expected one of pointer, accessibility, got "keyboard"/);
  });

  it('reads app and launch lists, naming the setting when one is wrong', () => {
    const settings = parseSettings(defaults({ 'apps.allow': [' gedit ', 'xterm'], 'apps.deny': ['firefox'], 'launch.allow': ['xcalc'] }));
    assert.deepEqual(settings.apps, { allow: ['gedit', 'xterm'], deny: ['firefox'] });
    assert.deepEqual(settings.launchAllow, ['xcalc']);
    assert.deepEqual(parseSettings(defaults({ 'approvals.alwaysAllow': ['scroll', ' click '] })).alwaysAllowTools, ['scroll', 'click']);
    assert.throws(() => parseSettings(defaults({ 'approvals.alwaysAllow': ['click', 3] })), /gai\.approvals\.alwaysAllow: expected a list of names/);
    assert.throws(() => parseSettings(defaults({ 'apps.allow': 'gedit' })), /Setting gai\.apps\.allow: expected a list of names/);
    assert.throws(() => parseSettings(defaults({ 'apps.deny': [''] })), /Setting gai\.apps\.deny: expected a list of names/);
    assert.throws(() => parseSettings(defaults({ 'launch.allow': ['x'.repeat(101)] })), /Setting gai\.launch\.allow: expected a list of names \(at most 500, each 1 to 100 characters\)/);
  });

  it('every parsed setting is declared in package.json, and no key setting exists', () => {
    const asked: string[] = [];
    parseSettings((key) => {
      asked.push(`gai.${key}`);
      return undefined;
    });
    assert.deepEqual(asked.sort(), Object.keys(properties).sort());
    assert.ok(!Object.keys(properties).some((key) => /(?<!hot)key|secret|token/i.test(key)), 'the API key must not be a setting');
  });

  it('takes valid values, trimming strings and dropping duplicate risk levels', () => {
    const settings = parseSettings(
      defaults({ provider: 'openai', baseUrl: ' http://localhost:11434/v1 ', 'model.default': 'llama3', autoApprove: ['read', 'action', 'read'], ocrLanguage: 'eng+deu' }),
    );
    assert.equal(settings.provider, 'openai');
    assert.equal(settings.baseUrl, 'http://localhost:11434/v1');
    assert.equal(settings.model.default, 'llama3');
    assert.deepEqual(settings.autoApprove, ['read', 'action']);
    assert.equal(settings.ocrLanguage, 'eng+deu');
  });

  it('takes gai.redact patterns and window titles', () => {
    const settings = parseSettings(defaults({ redact: { patterns: ['ACME-[0-9]{6}'], windowTitles: ['KeePassXC'] } }));
    assert.deepEqual(settings.redact, { patterns: ['ACME-[0-9]{6}'], windowTitles: ['KeePassXC'] });
  });

  const bad: [string, unknown, RegExp][] = [
    ['provider', 'claude', /gai\.provider: expected one of anthropic, openai, ollama, google, vscode-lm, got "claude"/],
    ['baseUrl', 'not a url', /gai\.baseUrl: expected an http\(s\) URL/],
    ['baseUrl', 'file:///etc', /gai\.baseUrl/],
    ['maxIterations', 0, /gai\.maxIterations: expected a whole number from 1 to 1000, got 0/],
    ['maxIterations', 2.5, /gai\.maxIterations/],
    ['maxIterations', '10', /gai\.maxIterations: .*got "10"/],
    ['toolProfile', 'admin', /gai\.toolProfile: expected one of read-only, standard, full/],
    ['autoApprove', 'read', /gai\.autoApprove: expected a list of risk levels/],
    ['autoApprove', ['read', 'everything'], /gai\.autoApprove/],
    ['ocrLanguage', 'eng; rm -rf', /gai\.ocrLanguage/],
    ['screenshotMaxWidth', 50, /gai\.screenshotMaxWidth: expected a whole number from 200 to 8192/],
    ['statusBar.refreshSeconds', -1, /gai\.statusBar\.refreshSeconds/],
    ['statusBar.summary', 'always', /gai\.statusBar\.summary: expected one of window, model, got "always"/],
    ['keepScreenshots', 51, /gai\.keepScreenshots/],
    ['computerUse', 'always', /gai\.computerUse: expected one of auto, native, gai-tools, got "always"/],
    ['model.fast', 42, /gai\.model\.fast: expected a string, got 42/],
    ['brain.thumbnails', 'no', /gai\.brain\.thumbnails: expected true or false, got "no"/],
    ['safety.stopHotkey', 'escape', /gai\.safety\.stopHotkey: "escape" would take the key from every application/],
    ['safety.stopHotkey', 'ctrl+nokey', /gai\.safety\.stopHotkey: "nokey" is not a known key/],
    ['safety.stopHotkey', 5, /gai\.safety\.stopHotkey: expected a key combination/],
    ['safety.failSafeCorner', 'yes', /gai\.safety\.failSafeCorner: expected true or false/],
    ['redact', ['x'], /gai\.redact: expected an object with "patterns" and "windowTitles" lists/],
    ['redact', { pattern: ['x'] }, /gai\.redact\.pattern: unknown field \(known: patterns, windowTitles\)/],
    ['redact', { patterns: 'x' }, /gai\.redact\.patterns: expected a list of non-empty strings/],
    ['redact', { patterns: ['ok', '(open'] }, /gai\.redact\.patterns\[1\]: not a valid regular expression/],
    ['redact', { patterns: ['.*'] }, /gai\.redact\.patterns\[0\]: matches the empty string/],
    ['redact', { windowTitles: [''] }, /gai\.redact\.windowTitles: expected a list of non-empty strings/],
  ];
  for (const [key, value, message] of bad) {
    it(`rejects gai.${key} = ${JSON.stringify(value)} with an error naming the setting`, () => {
      assert.throws(() => parseSettings(defaults({ [key]: value })), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'CONFIG');
        assert.match(error.message, message);
        return true;
      });
    });
  }
});
