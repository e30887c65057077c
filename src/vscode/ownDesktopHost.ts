// GAI's own desktop for the editor (setting gai.desktop: "own"): the same desktop the CLI's
// `--desktop own` and `gai mcp --desktop own` use (one keeper per user, started from the
// extension's dist/mcpServer.js on the editor's own Node), so the live view shows what an agent
// working through GAI's MCP server does there too.
import * as path from 'node:path';
import { GaiError } from '../common/errors';
import { ensureOwnDesktop, ownDesktopEnv, ownDesktopPlace, stopOwnDesktop, type OwnDesktopState } from '../platform/linux/x11/ownDesktop';
import { MCP_SERVER_SCRIPT } from './lm/mcpDefinitionLaunch';

export interface EditorOwnDesktop {
  state: OwnDesktopState;
  /** The environment of GAI's desktop adapters there (DISPLAY, its runtime folder, its framebuffer). */
  env: NodeJS.ProcessEnv;
  started: boolean;
}

export async function editorOwnDesktop(extensionPath: string, env: NodeJS.ProcessEnv): Promise<EditorOwnDesktop> {
  if (process.platform !== 'linux') throw new GaiError('CONFIG', `gai.desktop "own": GAI's own desktop runs on Linux (Xvfb and openbox); this is ${process.platform}. Set gai.desktop to "screen".`);
  // Electron runs a script as plain Node only when told so.
  const keeperEnv = process.versions.electron ? { ...env, ELECTRON_RUN_AS_NODE: '1' } : env;
  const { state, started } = await ensureOwnDesktop(ownDesktopPlace(env), path.join(extensionPath, MCP_SERVER_SCRIPT), keeperEnv);
  if (!state.framebuffer) {
    throw new GaiError('CONFIG', `GAI's own desktop ${state.display} was started by an older GAI that keeps no framebuffer file: stop it (gai desktop stop) and try again`);
  }
  return { state, env: ownDesktopEnv(env, state), started };
}

/** Ends GAI's own desktop and every app on it (the CLI's `gai desktop stop`); false when none ran. */
export function stopEditorOwnDesktop(env: NodeJS.ProcessEnv): Promise<boolean> {
  return stopOwnDesktop(ownDesktopPlace(env));
}
