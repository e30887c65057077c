import { createPlatformDesktop } from '../../../src/platform/platformDesktop';
import { createDesktopServices, type DesktopServices } from '../../../src/desktop/desktopServices';
import type { ToolCall } from '../../../src/model/messages';
import type { ToolResult } from '../../../src/tools/toolTypes';
import { createDesktopTools } from '../../../src/tools/desktop/desktopTools';
import { ToolRegistry } from '../../../src/tools/toolRegistry';
import { ToolRuntime } from '../../../src/runtime/toolRuntime';
import { suiteDisplay } from './fixture';

/** The real platform desktop on the suite's virtual display, with every desktop tool. */
export interface DesktopRig {
  services: DesktopServices;
  runtime: ToolRuntime;
  run(name: string, input: unknown): Promise<ToolResult>;
  dispose(): Promise<void>;
}

let counter = 0;

export function createDesktopRig(env: NodeJS.ProcessEnv = suiteDisplay().env): DesktopRig {
  const services = createDesktopServices(createPlatformDesktop({ env }));
  const registry = new ToolRegistry();
  for (const tool of createDesktopTools(services)) registry.register(tool);
  const runtime = new ToolRuntime(registry, { autoApprove: ['read', 'action', 'system'] });
  return {
    services,
    runtime,
    async run(name, input) {
      const call: ToolCall = { id: `t${++counter}`, name, input };
      return (await runtime.executeWithRecovery(call, new AbortController().signal)).result;
    },
    dispose: () => services.desktop.ocr.dispose(),
  };
}
