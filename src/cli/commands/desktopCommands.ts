import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Argument, Option, type Command } from 'commander';
import { GaiError } from '../../common/errors';
import type { ToolResult } from '../../tools/toolTypes';
import type { ToolRuntime } from '../../runtime/toolRuntime';
import { out, EXIT, type CliIo } from '../../common/cliIo';
import { printResult, runTool, toolExitCode } from './toolCommand';

// Thin fronts over the desktop tools. The person typing the command is the one approving
// it, so these run action tools without a second prompt.

type RuntimeFactory = () => ToolRuntime;

export function registerDesktopCommands(program: Command, io: CliIo, runtime: RuntimeFactory, setExit: (code: number) => void): void {
  const finish = (result: ToolResult, json: boolean): void => {
    printResult(io, result, json);
    setExit(toolExitCode(result, true));
  };

  program
    .command('screenshot')
    .description('capture the screen to a PNG file')
    .option('--out <file>', 'where to write it (default: screenshot-<time>.png)')
    .option('--region <x,y,w,h>', 'capture only this region')
    .option('--max-width <n>', 'downscale to at most this width')
    .addOption(new Option('--format <format>', 'png or jpeg').choices(['png', 'jpeg']).default('png'))
    .option('--json', 'print the result as JSON')
    .action(async (o: { out?: string; region?: string; maxWidth?: string; format: string; json?: boolean }) => {
      const result = await runTool(runtime(), 'screen_capture', {
        format: o.format,
        maxWidth: o.maxWidth === undefined ? 7_680 : count('--max-width', o.maxWidth),
        ...(o.region ? { region: region(o.region) } : {}),
      });
      const image = result.images?.[0];
      if (result.success && image) {
        const path = resolve(o.out ?? `screenshot-${new Date().toISOString().replace(/[:.]/g, '-')}.${o.format === 'jpeg' ? 'jpg' : 'png'}`);
        await writeFile(path, Buffer.from(image.source.data, 'base64'));
        if (o.json) out(io, JSON.stringify({ ...result, images: undefined, file: path }, null, 2) + '\n');
        else out(io, `${result.observation} Wrote ${path}\n`);
        setExit(EXIT.ok);
        return;
      }
      finish(result, o.json ?? false);
    });

  program
    .command('ocr')
    .description('read the text on the screen')
    .option('--region <x,y,w,h>', 'read only this region')
    .option('--words', 'list words instead of lines (with --json)')
    .option('--json', 'print text elements with boxes as JSON')
    .action(async (o: { region?: string; words?: boolean; json?: boolean }) => {
      const result = await runTool(runtime(), 'ocr', {
        ...(o.region ? { region: region(o.region) } : { captureScreen: true }),
        level: o.words ? 'words' : 'lines',
        maxElements: 2_000,
      });
      if (result.success && !o.json) {
        // The lines, not the model's screen_text block; their control characters are escaped,
        // so text on the screen cannot drive this terminal.
        const elements = (result.data as { elements: Array<{ text: string }> }).elements;
        out(io, `${elements.map((e) => e.text).join('\n')}\n`);
        setExit(EXIT.ok);
        return;
      }
      finish(result, o.json ?? false);
    });

  program
    .command('click')
    .description('click on visible text, or at --x/--y')
    .argument('[text]', 'the text to click')
    .option('--x <x>', 'x in screen pixels')
    .option('--y <y>', 'y in screen pixels')
    .addOption(new Option('--button <button>', 'mouse button').choices(['left', 'right', 'middle']).default('left'))
    .option('--double', 'double-click')
    .option('--occurrence <n>', 'which match of the text, 1-based')
    .option('--near <text>', 'the match closest to this other text')
    .addOption(new Option('--via <how>', "the pointer, or the control's accessibility action (the mouse does not move)").choices(['pointer', 'accessibility']))
    .option('--json', 'print the result as JSON')
    .action(async (text: string | undefined, o: { x?: string; y?: string; button: string; double?: boolean; occurrence?: string; near?: string; via?: string; json?: boolean }) => {
      const input: Record<string, unknown> = { button: o.button, doubleClick: o.double ?? false };
      if (text !== undefined) input.text = text;
      if (o.x !== undefined) input.x = number('--x', o.x);
      if (o.y !== undefined) input.y = number('--y', o.y);
      if (o.occurrence !== undefined) input.occurrence = count('--occurrence', o.occurrence);
      if (o.near !== undefined) input.near = o.near;
      if (o.via !== undefined) input.via = o.via;
      finish(await runTool(runtime(), 'click', input), o.json ?? false);
    });

  program
    .command('type')
    .description('type text into the focused field')
    .argument('<text>', 'the text')
    .option('--enter', 'press Enter afterwards')
    .option('--delay <ms>', 'milliseconds between characters', '50')
    .addOption(new Option('--via <how>', "the keyboard, or the focused field's accessibility interface (no key pressed)").choices(['keyboard', 'accessibility']))
    .option('--json', 'print the result as JSON')
    .action(async (text: string, o: { enter?: boolean; delay: string; via?: string; json?: boolean }) => {
      const via = o.via !== undefined ? { via: o.via } : {};
      finish(await runTool(runtime(), 'type_text', { text, pressEnter: o.enter ?? false, delay: number('--delay', o.delay), ...via }), o.json ?? false);
    });

  program
    .command('key')
    .description('press a key or shortcut, e.g. ctrl+s, enter, command+shift+t')
    .argument('<combo...>', 'one or more keys, pressed in order')
    .option('--json', 'print the result as JSON')
    .action(async (combo: string[], o: { json?: boolean }) => {
      finish(await runTool(runtime(), 'press_key', { key: combo.length === 1 ? combo[0] : combo }), o.json ?? false);
    });

  program
    .command('launch')
    .description('start an application by name and wait for its window')
    .argument('<app>', 'application name')
    .option('--timeout <ms>', 'how long to wait for its window', '10000')
    .option('--json', 'print the result as JSON')
    .action(async (app: string, o: { timeout: string; json?: boolean }) => {
      finish(await runTool(runtime(), 'launch_app', { appName: app, timeoutMs: count('--timeout', o.timeout) }), o.json ?? false);
    });

  program
    .command('scroll')
    .description('scroll with the mouse wheel')
    .addArgument(new Argument('<direction>', 'up, down, left or right').choices(['up', 'down', 'left', 'right']))
    .option('--amount <n>', 'wheel steps', '3')
    .option('--text <text>', 'scroll over this text')
    .option('--json', 'print the result as JSON')
    .action(async (direction: string, o: { amount: string; text?: string; json?: boolean }) => {
      finish(await runTool(runtime(), 'scroll', { direction, amount: count('--amount', o.amount), ...(o.text ? { text: o.text } : {}) }), o.json ?? false);
    });
}

function number(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new GaiError('INVALID_INPUT', `${flag}: expected a number, got "${value}"`);
  return n;
}

function count(flag: string, value: string): number {
  const n = number(flag, value);
  if (!Number.isInteger(n) || n < 0) throw new GaiError('INVALID_INPUT', `${flag}: expected a whole number, got "${value}"`);
  return n;
}

function region(value: string): { x: number; y: number; width: number; height: number } {
  const parts = value.split(',').map((p) => Number(p.trim()));
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0)) {
    throw new GaiError('INVALID_INPUT', `--region: expected x,y,width,height in whole pixels, got "${value}"`);
  }
  const [x, y, width, height] = parts as [number, number, number, number];
  return { x, y, width, height };
}
