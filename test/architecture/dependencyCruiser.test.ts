// .dependency-cruiser.cjs (npm run deps) on a small tree that breaks each rule once: the rules
// made from layers.json fire, on the right import, and a tree that follows them passes.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** Cruises `files` (path → text) laid out in a temporary folder with the repository's rules. */
async function cruiseTree(files: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gai-depcruise-'));
  try {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const tsconfig = { compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true }, include: ['src'] };
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const { cruise } = await import('dependency-cruiser');
    const { default: extractOptions } = await import('dependency-cruiser/config-utl/extract-depcruise-options');
    const { default: extractTsConfig } = await import('dependency-cruiser/config-utl/extract-ts-config');
    const options = await extractOptions(path.join(repoRoot, '.dependency-cruiser.cjs'));
    const cwd = process.cwd();
    process.chdir(dir); // the rules' paths are relative to the folder cruised from
    try {
      const result = await cruise(['src'], { ...options, cache: false }, {}, { tsConfig: extractTsConfig(path.join(dir, 'tsconfig.json')) });
      if (typeof result.output === 'string') throw new Error('expected a cruise result, got a report');
      const violations = result.output.summary.violations as Violation[];
      return violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    } finally {
      process.chdir(cwd);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('architecture: npm run deps (dependency-cruiser) rules', function () {
  // Loading dependency-cruiser and TypeScript takes a few seconds on a busy machine.
  this.timeout(60000);

  it('passes a tree that follows the order of the layers', async () => {
    const violations = await cruiseTree({
      'src/common/errors.ts': 'export const e = 1;\n',
      'src/desktop/ports/screenPort.ts': "import { e } from '../../common/errors';\nexport const s = e;\n",
      'src/tools/click.ts': "import { s } from '../desktop/ports/screenPort';\nexport const c = s;\n",
      'src/app/parts.ts': "import { c } from '../tools/click';\nexport const p = c;\n",
      'src/cli/main.ts': "import { p } from '../app/parts';\nexport const m = p;\n",
    });
    assert.deepEqual(violations, []);
  });

  it('reports an upward import, a cycle, app imported from below, an unplaced folder and a webview escape', async () => {
    const violations = await cruiseTree({
      'src/common/errors.ts': 'export const e = 1;\n',
      'src/tools/click.ts': "import { a } from '../agent/loop';\nexport const c = a;\n",
      'src/agent/loop.ts': "import { p } from '../app/parts';\nexport const a = p;\n",
      'src/app/parts.ts': "import { e } from '../common/errors';\nexport const p = e;\n",
      'src/runtime/toolRuntime.ts': "import { t } from './turnRunner';\nexport const r = t;\n",
      'src/runtime/turnRunner.ts': "import type { r } from './toolRuntime';\nexport const t = 1;\nexport type R = typeof r;\n",
      'src/desktop/ports/screenPort.ts': "import { read } from '../reading/screenReader';\nexport const s = read;\n",
      'src/desktop/reading/screenReader.ts': "import { e } from '../../common/errors';\nexport const read = e;\n",
      'src/gizmo/widget.ts': "import { e } from '../common/errors';\nexport const w = e;\n",
      'src/webview/main.ts': "import { e } from '../common/errors';\nexport const v = e;\n",
    });
    assert.deepEqual(violations, [
      'app-only-from-fronts: src/agent/loop.ts → src/app/parts.ts',
      'in-a-layer: src/gizmo/widget.ts → src/common/errors.ts',
      'layer-agent: src/agent/loop.ts → src/app/parts.ts',
      'layer-tools: src/tools/click.ts → src/agent/loop.ts',
      // Through a type-only import: reported once, from the first file of the cycle.
      'no-circular: src/runtime/toolRuntime.ts → src/runtime/turnRunner.ts',
      'parts-of-desktop-1: src/desktop/ports/screenPort.ts → src/desktop/reading/screenReader.ts',
      'webview-only-shared: src/webview/main.ts → src/common/errors.ts',
    ]);
  });
});
