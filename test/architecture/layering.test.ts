// Fails when src/ breaks the house rules (see layeringRules.ts), listing every offender.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkLayering, LAYERING_RULES, parseFiles, type SourceFile } from './layeringRules';

const repoRoot = path.resolve(__dirname, '..', '..');

function readSourceTree(): SourceFile[] {
  const srcDir = path.join(repoRoot, 'src');
  if (!existsSync(srcDir)) return [];
  const entries = readdirSync(srcDir, { recursive: true, encoding: 'utf8' });
  return entries
    .filter((entry) => entry.endsWith('.ts'))
    .map((entry) => path.join(srcDir, entry))
    .map((absolute) => ({
      path: path.relative(repoRoot, absolute).split(path.sep).join('/'),
      text: readFileSync(absolute, 'utf8'),
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

describe('architecture: layering of src/', () => {
  const files = parseFiles(readSourceTree());
  for (const rule of LAYERING_RULES) {
    it(rule.name, () => {
      const violations = rule.check(files);
      assert.deepEqual(violations, [], `${violations.length} violation(s):\n  ${violations.join('\n  ')}`);
    });
  }
});

describe('architecture: the layering checker', () => {
  const file = (filePath: string, text = 'export const x = 1;\n'): SourceFile => ({ path: filePath, text });
  const offenders = (violations: string[]) => [...new Set(violations.map((v) => v.split(/[: ]/)[0]))].sort();

  it('accepts a tree that follows the rules', () => {
    const violations = checkLayering([
      file('src/common/types.ts'),
      file('src/tools/click.ts', "import { x } from '../core/types';\nexport const y = x;\n"),
      file('src/vscode/panel.ts', "import * as vscode from 'vscode';\nexport const p = vscode;\n"),
      file('src/extension.ts', "import * as vscode from 'vscode';\nimport { p } from './vscode/panel';\nexport const e = [vscode, p];\n"),
      file('src/shared/protocol.ts'),
      file('src/webview/main.ts', "import { x } from '../shared/protocol';\nimport MarkdownIt from 'markdown-it';\nimport './view';\nexport const w = [x, MarkdownIt];\n"),
      file('src/webview/view.ts'),
      file('src/platform/nut/nutInput.ts', "import { mouse } from '@nut-tree-fork/nut-js';\nexport const m = mouse;\n"),
      file('src/model/providers/anthropicProvider.ts', "import Anthropic from '@anthropic-ai/sdk';\nexport const a = Anthropic;\n"),
      file('src/desktop/index.ts', "import { m } from './adapters/nutInput';\nexport const desktop = { m };\n"),
    ]);
    assert.deepEqual(violations, []);
  });

  it('reports vscode imports outside the VS Code host, with file and line', () => {
    const violations = checkLayering([
      file('src/tools/x.ts', "// a comment\nimport * as vscode from 'vscode';\nexport const x = vscode;\n"),
      file('src/agent/loop.ts', "export const load = () => import('vscode');\n"),
      file('src/cli/main.ts', "const vscode = require('vscode');\nexport const v = vscode;\n"),
    ]);
    assert.deepEqual(offenders(violations), ['src/agent/loop.ts', 'src/cli/main.ts', 'src/tools/x.ts']);
    assert.ok(violations.some((v) => v.startsWith("src/tools/x.ts:2 imports 'vscode'")), violations.join('\n'));
  });

  it('reports core files that import a host or the webview', () => {
    const violations = checkLayering([
      file('src/tools/a.ts', "import { p } from '../vscode/panel';\nexport const a = p;\n"),
      file('src/brain/b.ts', "export { run } from '../cli/main.js';\n"),
      file('src/llm/c.ts', "import { e } from '../extension';\nexport const c = e;\n"),
      file('src/logging/d.ts', "import type { View } from '../webview/view';\nexport type D = View;\n"),
      file('src/cli/main.ts', "import { a } from '../tools/a';\nexport const run = a;\n"),
    ]);
    assert.deepEqual(offenders(violations), ['src/brain/b.ts', 'src/llm/c.ts', 'src/logging/d.ts', 'src/tools/a.ts']);
  });

  it('reports webview imports of project files other than the protocol, and of unlisted packages', () => {
    const violations = checkLayering([
      file('src/webview/a.ts', "import { x } from '../core/types';\nexport const a = x;\n"),
      file('src/webview/b.ts', "import { readFileSync } from 'node:fs';\nexport const b = readFileSync;\n"),
      file('src/webview/c.ts', "import { y } from '../shared/protocol.js';\nimport '@vscode/codicons/dist/codicon.css';\nexport const c = y;\n"),
      file('src/webview/brain/d.ts', "import type { G } from '../../shared/brainProtocol';\nexport type D = G;\n"),
      file('src/webview/brain/e.ts', "import type { P } from '../../shared/otherProtocol';\nexport type E = P;\n"),
    ]);
    assert.deepEqual(offenders(violations), ['src/webview/a.ts', 'src/webview/b.ts', 'src/webview/brain/e.ts']);
  });

  it('reports native desktop packages and LLM SDKs outside their adapters', () => {
    const violations = checkLayering([
      file('src/tools/shot.ts', "import sharp from 'sharp';\nexport const s = sharp;\n"),
      file('src/desktop/ocr.ts', "import { createWorker } from 'tesseract.js';\nimport '@tesseract.js-data/eng';\nexport const o = createWorker;\n"),
      file('src/desktop/input.ts', "export { keyboard } from '@nut-tree-fork/nut-js';\n"),
      file('src/llm/router.ts', "import OpenAI from 'openai';\nexport const r = OpenAI;\n"),
      file('src/agent/agent.ts', "import type { Message } from '@anthropic-ai/sdk/resources';\nexport type M = Message;\n"),
    ]);
    assert.deepEqual(offenders(violations), [
      'src/agent/agent.ts',
      'src/desktop/input.ts',
      'src/desktop/ocr.ts',
      'src/llm/router.ts',
      'src/tools/shot.ts',
    ]);
    assert.equal(violations.filter((v) => v.startsWith('src/desktop/ocr.ts')).length, 2);
  });

  it('reports default exports, barrels, bad file names and long files', () => {
    const violations = checkLayering([
      file('src/core/a.ts', 'export default function a() {}\n'),
      file('src/core/b.ts', 'const b = 1;\nexport default b;\n'),
      file('src/core/c.ts', 'const c = 1;\nexport { c as default };\n'),
      file('src/core/index.ts', "export * from './a';\nexport { c } from './c';\n"),
      file('src/core/Bad_name.ts'),
      file('src/core/long.ts', 'export const x = 1;\n'.repeat(401)),
      file('src/core/limit.ts', 'export const x = 1;\n'.repeat(400)),
      file('src/tools/index.ts', 'export const registry = [];\n'),
    ]);
    assert.deepEqual(offenders(violations), [
      'src/core/Bad_name.ts',
      'src/core/a.ts',
      'src/core/b.ts',
      'src/core/c.ts',
      'src/core/index.ts',
      'src/core/long.ts',
    ]);
    assert.ok(violations.includes('src/core/b.ts:2 has a default export; use named exports'), violations.join('\n'));
  });
});
