// The layering checker on synthetic trees: each rule reports what breaks it, and only that.
import * as assert from 'node:assert/strict';
import { describeCycle, findCycles, parseFiles, type SourceFile } from './importGraph';
import { layerListProblems, type Layer } from './layerOrder';
import { checkLayering } from './layeringRules';

const file = (filePath: string, text = 'export const x = 1;\n'): SourceFile => ({ path: filePath, text });
const offenders = (violations: string[]) => [...new Set(violations.map((v) => v.split(/[: ]/)[0]))].sort();
const show = (violations: string[]) => violations.join('\n');

describe('architecture: the layering checker', () => {
  it('accepts a tree that follows the rules', () => {
    const violations = checkLayering([
      file('src/common/errors.ts'),
      file('src/desktop/ports/screenPort.ts', "import type { x } from '../ocr/ocrTypes';\nexport type S = typeof x;\n"),
      file('src/desktop/ocr/ocrTypes.ts', "import { x } from '../../common/errors';\nexport { x };\n"),
      file('src/desktop/reading/screenReader.ts', "import { x } from '../ports/screenPort';\nimport '../grounding/textLocator';\nexport const r = x;\n"),
      file('src/desktop/grounding/textLocator.ts'),
      file('src/platform/nut/nutInput.ts', "import { mouse } from '@nut-tree-fork/nut-js';\nimport '../../desktop/reading/screenReader';\nexport const m = mouse;\n"),
      file('src/model/providers/anthropicProvider.ts', "import Anthropic from '@anthropic-ai/sdk';\nimport '../messages';\nexport const a = Anthropic;\n"),
      file('src/model/messages.ts'),
      file('src/tools/desktop/clickTool.ts', "import { x } from '../../common/errors';\nimport '../toolBase';\nexport const y = x;\n"),
      file('src/tools/toolBase.ts'),
      file('src/app/gaiParts.ts', "import '../tools/desktop/clickTool';\nexport const parts = 1;\n"),
      file('src/cli/main.ts', "import { parts } from '../app/gaiParts';\nimport '../demo/desktopDemo';\nexport const run = parts;\n"),
      file('src/demo/desktopDemo.ts', "import '../app/gaiParts';\nexport const demo = 1;\n"),
      file('src/vscode/panel.ts', "import * as vscode from 'vscode';\nimport '../app/gaiParts';\nexport const p = vscode;\n"),
      file('src/extension.ts', "import * as vscode from 'vscode';\nimport { p } from './vscode/panel';\nexport const e = [vscode, p];\n"),
      file('src/shared/protocol.ts', "import { Type } from '@sinclair/typebox';\nexport const T = Type;\n"),
      file('src/webview/main.ts', "import type { T } from '../shared/protocol';\nimport MarkdownIt from 'markdown-it';\nimport './view';\nexport const w = [MarkdownIt];\nexport type W = T;\n"),
      file('src/webview/view.ts'),
    ]);
    assert.deepEqual(violations, []);
  });

  it('reports an import up the layers with file, line, the import and the two layers', () => {
    const violations = checkLayering([
      file('src/tools/x.ts', "// why\nimport { run } from '../agent/loop';\nexport const x = run;\n"),
      file('src/agent/loop.ts', "import type { M } from '../model/messages';\nexport const run = 1;\nexport type L = M;\n"),
      file('src/model/messages.ts', "export type M = string;\n"),
      file('src/desktop/ports/screenPort.ts', "export { n } from '../../platform/nut/nutInput';\n"),
      file('src/platform/nut/nutInput.ts', 'export const n = 1;\n'),
    ]);
    assert.deepEqual(offenders(violations), ['src/desktop/ports/screenPort.ts', 'src/tools/x.ts'], show(violations));
    assert.ok(
      violations.includes("src/tools/x.ts:2 imports '../agent/loop' (src/agent/loop.ts): layer tools sits below layer agent (test/architecture/layers.json) and may not import it"),
      show(violations),
    );
  });

  it('reports an import up the parts of a layer (desktop/ports is the bottom of desktop)', () => {
    const violations = checkLayering([
      file('src/desktop/ports/screenPort.ts', "import type { R } from '../reading/screenReader';\nexport type S = R;\n"),
      file('src/desktop/reading/screenReader.ts', "export type R = string;\n"),
      file('src/navigation/store/brainStore.ts', "import { learn } from '../learning/navigationLearner';\nexport const s = learn;\n"),
      file('src/navigation/learning/navigationLearner.ts', 'export const learn = 1;\n'),
    ]);
    assert.deepEqual(offenders(violations), ['src/desktop/ports/screenPort.ts', 'src/navigation/store/brainStore.ts'], show(violations));
    assert.ok(
      violations.some((v) => v.startsWith("src/desktop/ports/screenPort.ts:1 imports '../reading/screenReader'") && v.includes('in layer desktop, [src/desktop/ports, ') && v.includes('sits below [src/desktop/reading, src/desktop/grounding] and may not import it')),
      show(violations),
    );
  });

  it('reports src/app imported from below the fronts, not from a front', () => {
    const violations = checkLayering([
      file('src/app/gaiParts.ts', 'export const parts = 1;\n'),
      file('src/navigation/navigationBrain.ts', "import { parts } from '../app/gaiParts';\nexport const b = parts;\n"),
      file('src/mcp/server/gaiMcpServer.ts', "import { parts } from '../../app/gaiParts';\nexport const s = parts;\n"),
      file('src/cli/main.ts', "import { parts } from '../app/gaiParts';\nexport const run = parts;\n"),
    ]);
    assert.deepEqual(offenders(violations), ['src/navigation/navigationBrain.ts'], show(violations));
    assert.ok(violations.some((v) => v.includes('only the fronts import src/app')), show(violations));
  });

  it('reports an import cycle as the path a → b → a, type-only imports included, once per circle', () => {
    const violations = checkLayering([
      file('src/runtime/toolRuntime.ts', "import { runTurn } from './turnRunner';\nexport class ToolRuntime {}\nexport const r = runTurn;\n"),
      file('src/runtime/turnRunner.ts', "// the outcome type\nimport type { ToolRuntime } from './toolRuntime';\nexport const runTurn = (t?: ToolRuntime) => t;\n"),
      file('src/common/a.ts', "import './b';\n"),
      file('src/common/b.ts', "import './c';\n"),
      file('src/common/c.ts', "import './a';\nimport './b';\n"),
    ]);
    assert.deepEqual(violations.filter((v) => !v.startsWith('import cycle')), [], show(violations));
    assert.ok(
      violations.includes('import cycle src/runtime/toolRuntime.ts:1 → src/runtime/turnRunner.ts:2 → src/runtime/toolRuntime.ts: move what they share into a file below both'),
      show(violations),
    );
    // a → b → c → a and b → c → b are one circle of three files: reported once, its shortest cycle from a.
    const common = violations.filter((v) => v.includes('src/common/'));
    assert.deepEqual(common, [
      'import cycle src/common/a.ts:1 → src/common/b.ts:1 → src/common/c.ts:1 → src/common/a.ts: move what they share into a file below both',
    ]);
  });

  it('finds the shortest cycle and the size of its circle', () => {
    const cycles = findCycles(
      parseFiles([
        file('src/common/a.ts', "import './b';\nimport './d';\n"),
        file('src/common/b.ts', "import './c';\n"),
        file('src/common/c.ts', "import './a';\n"),
        file('src/common/d.ts', "import './a';\n"),
        file('src/common/self.ts', "import './self';\n"),
        file('src/common/free.ts', "import './a';\n"),
      ]),
    );
    assert.deepEqual(
      cycles.map((cycle) => [describeCycle(cycle.steps), cycle.groupSize]),
      [
        ['src/common/a.ts:2 → src/common/d.ts:1 → src/common/a.ts', 4],
        ['src/common/self.ts:1 → src/common/self.ts', 1],
      ],
    );
  });

  it('reports a new top-level folder of src/ that is in no layer', () => {
    const violations = checkLayering([file('src/gizmo/widget.ts'), file('src/extras.ts'), file('src/common/ok.ts')]);
    assert.deepEqual(
      violations,
      [
        'src/gizmo/widget.ts is in no layer: add src/gizmo to the ordered list in test/architecture/layers.json',
        'src/extras.ts is in no layer: add src/extras.ts to the ordered list in test/architecture/layers.json',
      ],
    );
  });

  it('reports webview imports beyond src/shared and its packages, src/shared importing the rest, and imports of the webview', () => {
    const violations = checkLayering([
      file('src/webview/a.ts', "import { x } from '../common/errors';\nexport const a = x;\n"),
      file('src/webview/b.ts', "import { readFileSync } from 'node:fs';\nexport const b = readFileSync;\n"),
      file('src/webview/c.ts', "import { y } from '../shared/protocol.js';\nimport '@vscode/codicons/dist/codicon.css';\nexport const c = y;\n"),
      file('src/webview/brain/d.ts', "import type { G } from '../../shared/brainProtocol';\nexport type D = G;\n"),
      file('src/shared/protocol.ts', "import { x } from '../common/errors';\nexport const y = x;\n"),
      file('src/shared/brainProtocol.ts', "import { Type } from '@sinclair/typebox';\nexport type G = typeof Type;\n"),
      file('src/common/errors.ts'),
      file('src/vscode/panel.ts', "import { a } from '../webview/a';\nexport const p = a;\n"),
    ]);
    assert.deepEqual(offenders(violations), ['src/shared/protocol.ts', 'src/vscode/panel.ts', 'src/webview/a.ts', 'src/webview/b.ts'], show(violations));
  });

  it('reports vscode imports outside the VS Code front, with file and line', () => {
    const violations = checkLayering([
      file('src/tools/x.ts', "// a comment\nimport * as vscode from 'vscode';\nexport const x = vscode;\n"),
      file('src/agent/loop.ts', "export const load = () => import('vscode');\n"),
      file('src/cli/main.ts', "const vscode = require('vscode');\nexport const v = vscode;\n"),
    ]);
    assert.deepEqual(offenders(violations), ['src/agent/loop.ts', 'src/cli/main.ts', 'src/tools/x.ts']);
    assert.ok(violations.some((v) => v.startsWith("src/tools/x.ts:2 imports 'vscode'")), show(violations));
  });

  it('reports native desktop packages and LLM SDKs outside their homes', () => {
    const violations = checkLayering([
      file('src/tools/shot.ts', "import sharp from 'sharp';\nexport const s = sharp;\n"),
      file('src/desktop/ocr/ocr.ts', "import { createWorker } from 'tesseract.js';\nimport '@tesseract.js-data/eng';\nexport const o = createWorker;\n"),
      file('src/desktop/input/input.ts', "export { keyboard } from '@nut-tree-fork/nut-js';\n"),
      file('src/model/router.ts', "import OpenAI from 'openai';\nexport const r = OpenAI;\n"),
      file('src/agent/agent.ts', "import type { Message } from '@anthropic-ai/sdk/resources';\nexport type M = Message;\n"),
    ]);
    assert.deepEqual(offenders(violations), ['src/agent/agent.ts', 'src/desktop/input/input.ts', 'src/desktop/ocr/ocr.ts', 'src/model/router.ts', 'src/tools/shot.ts']);
    assert.equal(violations.filter((v) => v.startsWith('src/desktop/ocr/ocr.ts')).length, 2);
  });

  it('reports default exports, barrels, bad file names and long files', () => {
    const violations = checkLayering([
      file('src/common/a.ts', 'export default function a() {}\n'),
      file('src/common/b.ts', 'const b = 1;\nexport default b;\n'),
      file('src/common/c.ts', 'const c = 1;\nexport { c as default };\n'),
      file('src/common/index.ts', "export * from './a';\nexport { c } from './c';\n"),
      file('src/common/Bad_name.ts'),
      file('src/common/long.ts', 'export const x = 1;\n'.repeat(401)),
      file('src/common/limit.ts', 'export const x = 1;\n'.repeat(400)),
      file('src/tools/index.ts', 'export const registry = [];\n'),
    ]);
    assert.deepEqual(offenders(violations), ['src/common/Bad_name.ts', 'src/common/a.ts', 'src/common/b.ts', 'src/common/c.ts', 'src/common/index.ts', 'src/common/long.ts']);
    assert.ok(violations.includes('src/common/b.ts:2 has a default export; use named exports'), show(violations));
  });

  it('reports mistakes in the list of layers itself', () => {
    const layer = (name: string, paths: string[], extra: Partial<Layer> = {}): Layer => ({ name, paths, what: name, ...extra });
    assert.deepEqual(layerListProblems([layer('common', ['src/common']), layer('cli', ['src/cli'], { front: true })]), []);
    assert.deepEqual(
      layerListProblems([
        layer('common', ['src/common']),
        layer('again', ['src/common']),
        layer('desktop', ['src/desktop'], { parts: [['src/desktop/ports'], ['src/tools']] }),
        layer('cli', ['src/cli'], { front: true }),
        layer('tools', ['src/tools']),
      ]),
      [
        'src/common is in two layers: common and again',
        'layer desktop: its parts need exactly one "*" (the rest of the layer), found 0',
        'layer desktop: part src/tools is not inside the layer',
        'the fronts must be the top layers (nothing but fronts above the first front)',
      ],
    );
  });
});
