// In-host tests of GAI's language model tools and MCP server definition: the real extension in a
// real extension host, vscode.lm.invokeTool on the fixture app of the private Xvfb, and the MCP
// server the definition provider offers, spawned and listed with the real MCP SDK client.
'use strict';
/* global describe, it, before */ // mocha's BDD globals

const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const vscode = require('vscode');

const EXTENSION_ID = 'gai.gai';
const GAI_TOOLS = ['gai_screen_capture', 'gai_ocr', 'gai_get_element_tree', 'gai_click', 'gai_type_text', 'gai_press_key', 'gai_scroll', 'gai_drag', 'gai_launch_app', 'gai_navigate_to', 'gai_get_current_node', 'gai_run_routine'];

function fixtureEvents() {
  return readFileSync(process.env.GAI_FIXTURE_LOG, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** invokeTool with a deadline: a confirmation nobody can answer must fail the test, not hang it. */
async function invoke(name, input, ms = 25000) {
  const source = new vscode.CancellationTokenSource();
  const timer = setTimeout(() => source.cancel(), ms);
  try {
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, source.token);
    return result.content.filter((part) => part instanceof vscode.LanguageModelTextPart).map((part) => part.value).join('\n');
  } finally {
    clearTimeout(timer);
    source.dispose();
  }
}

describe('GAI language model tools and MCP server definition', () => {
  let api;
  const config = () => vscode.workspace.getConfiguration('gai');

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    // The tools act only in apps the person allowed; a modal would ask otherwise (unanswerable here).
    await config().update('apps.allow', ['GaiFixture', 'Code'], vscode.ConfigurationTarget.Global);
  });

  it("vscode.lm.tools lists GAI's tools with the gai tag and the tools' own schemas", () => {
    const gai = vscode.lm.tools.filter((tool) => tool.tags.includes('gai'));
    assert.deepEqual(gai.map((tool) => tool.name).sort(), [...GAI_TOOLS].sort());
    const click = gai.find((tool) => tool.name === 'gai_click');
    assert.ok(click.inputSchema && click.inputSchema.properties && click.inputSchema.properties.text, JSON.stringify(click.inputSchema));
    assert.ok(click.tags.includes('action'));
    assert.ok(gai.find((tool) => tool.name === 'gai_ocr').tags.includes('read'));
  });

  it('vscode.lm.invokeTool runs gai_ocr on the fixture: its text comes back', async () => {
    const text = await invoke('gai_ocr', { captureScreen: true });
    const result = JSON.parse(text.split('\n')[0]);
    assert.equal(result.success, true, text);
    assert.match(JSON.stringify(result.data), /Left panel/);
  });

  it('vscode.lm.invokeTool runs a click on the fixture: the click lands on the left OK', async () => {
    const before = fixtureEvents().filter((e) => e.event === 'click').length;
    const text = await invoke('gai_click', { text: 'OK', near: 'Left panel' });
    assert.match(text, /"success":true/, text);
    const clicks = fixtureEvents().filter((e) => e.event === 'click');
    assert.equal(clicks.length, before + 1);
    assert.equal(clicks.at(-1).widget, 'left_ok_button');
  });

  it('gai_screen_capture: the picture comes as image data where the editor has LanguageModelDataPart, else the text says it was not attached', async () => {
    const source = new vscode.CancellationTokenSource();
    const result = await vscode.lm.invokeTool('gai_screen_capture', { input: {}, toolInvocationToken: undefined }, source.token);
    const text = result.content.filter((part) => part instanceof vscode.LanguageModelTextPart).map((part) => part.value).join('\n');
    assert.match(text, /"success":true/, text);
    const images = result.content.filter((part) => part && typeof part.mimeType === 'string' && part.data instanceof Uint8Array);
    if (typeof vscode.LanguageModelDataPart === 'function') {
      assert.equal(images.length, 1, `one image part: ${text}`);
      assert.equal(images[0].mimeType, 'image/png');
      assert.deepEqual([...images[0].data.slice(1, 4)], [0x50, 0x4e, 0x47], 'PNG bytes');
      assert.match(text, /The picture follows as image data/);
    } else {
      assert.equal(images.length, 0);
      assert.match(text, /could not be attached/);
    }
  });

  it('a click the tool profile forbids comes back as a result saying why, and nothing is clicked', async () => {
    await config().update('toolProfile', 'read-only', vscode.ConfigurationTarget.Global);
    try {
      const before = fixtureEvents().filter((e) => e.event === 'click').length;
      const text = await invoke('gai_click', { text: 'OK', near: 'Right panel' });
      assert.match(text, /"code":"DENIED"/, text);
      assert.match(text, /read-only/);
      assert.equal(fixtureEvents().filter((e) => e.event === 'click').length, before);
    } finally {
      await config().update('toolProfile', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('the MCP server definition provider offers a server that runs: the real SDK client lists its tools', async function () {
    this.timeout(60000);
    const [definition] = await api.mcpServerDefinitions();
    assert.ok(definition, 'one server offered');
    assert.equal(definition.command, process.execPath);
    assert.match(definition.args[0], /dist[\\/]mcpServer\.js$/);
    assert.deepEqual(definition.args.slice(1), ['--profile', 'standard']);
    assert.equal(definition.env.GAI_BRAIN_DIR, api.brainDir());
    assert.ok(definition.resolvedEnvNames.includes('GAI_BRAIN_DIR'));
    const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
    const env = {};
    for (const [name, value] of Object.entries({ ...process.env, ...definition.env })) if (typeof value === 'string') env[name] = value;
    const client = new Client({ name: 'gai-in-host-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: definition.command, args: definition.args, env, stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      for (const name of ['ocr', 'click', 'navigate_to']) assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
      // The standard profile: starting programs is not offered.
      assert.ok(!names.includes('launch_app'), names.join(', '));
    } finally {
      await client.close();
    }
  });
});
