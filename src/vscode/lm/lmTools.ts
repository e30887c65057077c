// GAI's desktop tools as VS Code language model tools (Copilot's agent mode, `#gai_click`, the
// `#gai` tool set). The work is LmToolsRunner's; this file only speaks VS Code's types.
import * as vscode from 'vscode';
import type { ImageBlock } from '../../model/messages';
import { LM_TOOLS, lmToolName, type LmToolSpec } from './lmToolsCatalog';
import { lmResultText, type LmToolsRunner } from './lmToolsRunner';

/** VS Code 1.105's API has no image part; newer editors have `LanguageModelDataPart.image` at run time. */
interface DataPartClass {
  image(data: Uint8Array, mimeType: string): unknown;
}

export function registerLmTools(runner: LmToolsRunner): vscode.Disposable[] {
  const dataPart = (vscode as unknown as { LanguageModelDataPart?: Partial<DataPartClass> }).LanguageModelDataPart;
  const imagePart = typeof dataPart?.image === 'function' ? (image: ImageBlock): unknown => dataPart.image!(Buffer.from(image.source.data, 'base64'), image.source.mediaType) : undefined;
  return LM_TOOLS.map((spec) => vscode.lm.registerTool<object>(lmToolName(spec.tool), lmTool(spec, runner, imagePart)));
}

function lmTool(spec: LmToolSpec, runner: LmToolsRunner, imagePart: ((image: ImageBlock) => unknown) | undefined): vscode.LanguageModelTool<object> {
  return {
    async prepareInvocation(options) {
      const prepared = await runner.prepare(spec, options.input);
      return {
        invocationMessage: prepared.invocationMessage,
        ...(prepared.confirmation ? { confirmationMessages: { title: prepared.confirmation.title, message: new vscode.MarkdownString(prepared.confirmation.message) } } : {}),
      };
    },
    async invoke(options, token) {
      const controller = new AbortController();
      const cancelled = token.onCancellationRequested(() => controller.abort());
      try {
        const result = await runner.run(spec, options.input, controller.signal);
        const images = imagePart ? (result.images ?? []) : [];
        const parts: unknown[] = [new vscode.LanguageModelTextPart(lmResultText(result, imagePart !== undefined)), ...images.map((image) => imagePart!(image))];
        // The constructor's type predates image parts; the editor accepts them where the class exists.
        return new vscode.LanguageModelToolResult(parts as vscode.LanguageModelTextPart[]);
      } finally {
        cancelled.dispose();
      }
    },
  };
}
