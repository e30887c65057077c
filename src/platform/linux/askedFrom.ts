import type { Asker } from '../../desktop/grounding/askerWindows';
import { ancestorPids } from './procScan';

/**
 * This process's asker: the processes above it (/proc), and the window its terminal names in
 * WINDOWID when the desktop acted on is the terminal's own display (an id of another display's
 * window could name anything here).
 */
export function askedFrom(env: NodeJS.ProcessEnv, desktopEnv: NodeJS.ProcessEnv = env): Asker {
  const sameDisplay = desktopEnv.DISPLAY === env.DISPLAY;
  return { pids: ancestorPids(), windowIds: env.WINDOWID && sameDisplay ? [env.WINDOWID] : [] };
}
