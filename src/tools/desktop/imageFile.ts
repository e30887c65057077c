import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { errorMessage } from '../../common/errors';

/** Far above any screenshot (a 4K PNG is ~25 MB at worst), far below what hurts the process. */
export const MAX_IMAGE_FILE_BYTES = 40 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;

export type ImageFileFailure = { kind: 'missing' | 'invalid' | 'cancelled'; message: string };
export type ImageFileRead = { ok: true; bytes: Buffer } | ({ ok: false } & ImageFileFailure);

/**
 * Reads an image file a model named, safely: regular files only, up to `maxBytes`, in chunks
 * that honour `signal`. Opened non-blocking so a FIFO cannot park a thread-pool thread (and
 * stall every later file and DNS operation of the process), then checked with fstat on the
 * open descriptor so nothing can be swapped in between the check and the read.
 */
export async function readImageFile(path: string, signal: AbortSignal, maxBytes = MAX_IMAGE_FILE_BYTES): Promise<ImageFileRead> {
  if (signal.aborted) return { ok: false, kind: 'cancelled', message: 'cancelled before the file was read' };
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, kind: 'missing', message: `imagePath: ${path} does not exist` };
    return { ok: false, kind: 'invalid', message: `imagePath: ${path} cannot be opened (${errorMessage(error)})` };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      return { ok: false, kind: 'invalid', message: `imagePath: ${path} is not a regular file (it is ${kindOf(stats)}); give a PNG or JPEG file` };
    }
    if (stats.size > maxBytes) {
      return { ok: false, kind: 'invalid', message: `imagePath: ${path} has ${stats.size} bytes, more than the limit of ${maxBytes}` };
    }
    if (stats.size === 0) return { ok: false, kind: 'invalid', message: `imagePath: ${path} is empty` };
    return await readChunks(handle, path, stats.size, maxBytes, signal);
  } catch (error) {
    return { ok: false, kind: 'invalid', message: `imagePath: ${path} cannot be read (${errorMessage(error)})` };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function readChunks(handle: FileHandle, path: string, size: number, maxBytes: number, signal: AbortSignal): Promise<ImageFileRead> {
  // The file may grow while we read: never read past the limit, whatever fstat said.
  const buffer = Buffer.alloc(Math.min(size, maxBytes));
  let filled = 0;
  while (filled < buffer.length) {
    if (signal.aborted) return { ok: false, kind: 'cancelled', message: `reading ${path} was cancelled` };
    const { bytesRead } = await handle.read(buffer, filled, Math.min(CHUNK_BYTES, buffer.length - filled), filled);
    if (bytesRead === 0) break; // it shrank
    filled += bytesRead;
  }
  return { ok: true, bytes: buffer.subarray(0, filled) };
}

function kindOf(stats: { isDirectory(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isFIFO(): boolean; isSocket(): boolean }): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}
