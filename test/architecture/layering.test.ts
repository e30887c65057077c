// Fails when src/ breaks the house rules (see layeringRules.ts and layers.json), listing every offender.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseFiles, type SourceFile } from './importGraph';
import { LAYERS, REST, WEBVIEW } from './layerOrder';
import { LAYERING_RULES } from './layeringRules';

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

  it('every folder and file the layers and their parts name exists (no stale entry)', () => {
    const named = [...LAYERS.flatMap((layer) => [...layer.paths, ...(layer.parts ?? []).flat()]), ...WEBVIEW.paths];
    const missing = named.filter((entry) => entry !== REST && !existsSync(path.join(repoRoot, entry)));
    assert.deepEqual(missing, []);
  });
});
