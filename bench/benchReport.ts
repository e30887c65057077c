import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** The goal, when there is one, e.g. `< 2`. */
  goal?: string;
  met?: boolean;
  note?: string;
}

export function printTable(rows: BenchRow[]): void {
  const header = ['benchmark', 'value', 'unit', 'goal', 'met', 'note'];
  const cells = rows.map((r) => [r.name, formatNumber(r.value), r.unit, r.goal ?? '', r.met === undefined ? '' : r.met ? 'yes' : 'NO', r.note ?? '']);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: string[]): string => values.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

export function writeJson(path: string, rows: BenchRow[], meta: Record<string, unknown>): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify({ ...meta, rows }, null, 2) + '\n');
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 1) return value.toFixed(2);
  return value.toFixed(4);
}
