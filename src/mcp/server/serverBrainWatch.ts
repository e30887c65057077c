import { watch, type FSWatcher } from 'node:fs';
import { BRAIN_FILE_NAME } from '../../navigation/store/brainStore';
import { errorMessage } from '../../common/errors';
import type { Logger } from '../../common/logger';

/** A save is a temp file renamed over brain.json plus a backup: one change, not three. */
const SETTLE_MS = 150;

/**
 * Calls `onChange` after brain.json in `dir` was replaced or written, by this process or another
 * (a `gai navigate` in a terminal, the extension). The folder is watched, not the file: a save
 * renames a new file over it. Returns the stop.
 */
export function watchBrainFile(dir: string, onChange: () => void, logger: Logger): () => void {
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher;
  try {
    watcher = watch(dir, { persistent: false }, (_event, file) => {
      if (file !== null && file !== BRAIN_FILE_NAME) return;
      clearTimeout(timer);
      timer = setTimeout(onChange, SETTLE_MS);
    });
  } catch (error) {
    logger.warn(`mcp: the brain folder ${dir} cannot be watched (${errorMessage(error)}); paths learned elsewhere appear after a restart`);
    return () => undefined;
  }
  watcher.on('error', (error) => logger.warn(`mcp: watching ${dir} stopped (${errorMessage(error)})`));
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
