// package.json's language model tools must be GAI's tools as the registry declares them: the same
// input schemas (the TypeBox schemas the runtime validates with), names, risks and descriptions.
// After changing a tool's schema or the catalog: GAI_UPDATE_MANIFEST=1 npx mocha --require tsx
// test/vscodeGlue/lmToolsManifest.test.ts rewrites the two entries.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrainProvider } from '../../src/navigation/navigationBrain';
import { GetCurrentNodeTool } from '../../src/navigation/tools/getCurrentNodeTool';
import { RunRoutineTool } from '../../src/navigation/tools/runRoutineTool';
import { NavigateToTool } from '../../src/navigation/tools/navigateToTool';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { GAI_TAG, LM_TOOLS, lmToolName, lmToolsManifest, type ToolFacts } from '../../src/vscode/lm/lmToolsCatalog';
import { createFakeDesktop, makeServices } from '../support/fakeDesktop';

const PACKAGE_JSON = join(__dirname, '..', '..', 'package.json');

function registryTools(): ToolFacts[] {
  const brain: BrainProvider = () => Promise.reject(new Error('no brain in this test'));
  const tools = [...createDesktopTools(makeServices(createFakeDesktop())), new NavigateToTool(brain), new GetCurrentNodeTool(brain), new RunRoutineTool(brain)];
  return tools.map((tool) => ({ ...tool.getDefinition(), risk: tool.risk }));
}

interface Manifest {
  contributes: { languageModelTools?: unknown[]; languageModelToolSets?: unknown[]; mcpServerDefinitionProviders?: Array<{ id: string; label: string }> };
  enabledApiProposals?: string[];
}

describe('language model tools in package.json', () => {
  const expected = lmToolsManifest(registryTools());
  if (process.env.GAI_UPDATE_MANIFEST === '1') {
    // Spliced into the text: the rest of package.json keeps its hand formatting.
    let text = readFileSync(PACKAGE_JSON, 'utf8');
    text = spliceContribution(text, 'languageModelTools', expected.languageModelTools);
    writeFileSync(PACKAGE_JSON, text);
  }
  const manifest = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as Manifest;
  const hint = 'package.json drifted from the tools: run GAI_UPDATE_MANIFEST=1 npx mocha --require tsx test/vscodeGlue/lmToolsManifest.test.ts';

  it("declares every exposed tool with the registry's own input schema, description and risk tag", () => {
    assert.deepEqual(manifest.contributes.languageModelTools, expected.languageModelTools, hint);
    const tools = registryTools();
    const click = (manifest.contributes.languageModelTools as Array<{ name: string; inputSchema: unknown; tags: string[]; modelDescription: string }>).find((tool) => tool.name === 'gai_click');
    assert.ok(click, 'gai_click is declared');
    const registryClick = tools.find((tool) => tool.name === 'click');
    assert.deepEqual(click.inputSchema, registryClick?.inputSchema);
    assert.deepEqual(click.tags, [GAI_TAG, 'desktop', 'action']);
    assert.ok(click.modelDescription.startsWith(registryClick?.description ?? '?'), click.modelDescription);
    assert.match(click.modelDescription, /confirms each call in VS Code first/);
  });

  it('exposes the tools the issue names, under gai_ names, each one a #reference in a prompt, and no proposed tool set', () => {
    const names = LM_TOOLS.map((spec) => spec.tool);
    for (const tool of ['screen_capture', 'ocr', 'get_element_tree', 'click', 'type_text', 'press_key', 'scroll', 'drag', 'launch_app', 'navigate_to', 'get_current_node']) {
      assert.ok(names.includes(tool), `${tool} is exposed`);
    }
    const declared = manifest.contributes.languageModelTools as Array<{ name: string; toolReferenceName: string; canBeReferencedInPrompt: boolean }>;
    assert.deepEqual(declared.map((tool) => tool.toolReferenceName), names.map(lmToolName));
    assert.ok(declared.every((tool) => tool.canBeReferencedInPrompt && tool.toolReferenceName === tool.name));
    // Tool sets are a proposed contribution (contribLanguageModelToolSets): the registries refuse a package enabling one.
    assert.equal(manifest.contributes.languageModelToolSets, undefined, 'no languageModelToolSets');
    assert.equal(manifest.enabledApiProposals, undefined, 'no enabledApiProposals');
  });

  it('a renamed tool fails loudly instead of vanishing from VS Code', () => {
    const tools = registryTools().filter((tool) => tool.name !== 'ocr');
    assert.throws(() => lmToolsManifest(tools), /GAI has no tool named "ocr"/);
  });

  it('offers the MCP server definition provider the extension registers', () => {
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders?.map((provider) => provider.id), ['gai.mcpServer']);
  });
});

/** Replaces `contributes.<key>`'s array in the text, or adds it first in `contributes`. */
function spliceContribution(text: string, key: string, value: unknown): string {
  const json = (indent: string): string => JSON.stringify(value, null, 2).replaceAll('\n', `\n${indent}`);
  const existing = text.indexOf(`\n    "${key}": [`);
  if (existing >= 0) {
    const start = text.indexOf('[', existing);
    return text.slice(0, start) + json('    ') + text.slice(arrayEnd(text, start) + 1);
  }
  const anchor = text.indexOf('"contributes": {');
  if (anchor < 0) throw new Error('package.json has no contributes');
  const at = anchor + '"contributes": {'.length;
  return `${text.slice(0, at)}\n    "${key}": ${json('    ')},${text.slice(at)}`;
}

/** The index of the `]` closing the array that opens at `start` (strings skipped). */
function arrayEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  throw new Error('unbalanced package.json');
}
