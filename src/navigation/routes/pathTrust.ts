import { GaiError } from '../../common/errors';
import { isoTime, type BrainDocument, type BrainPath } from '../store/brainTypes';

// Whose steps a path holds. A path learned here was approved step by step as it ran; one that
// came in a file was not, whatever the file says about itself, until the person confirms it.

/** Learned here, or imported and confirmed by the person. */
export function isTrusted(path: BrainPath): boolean {
  return path.trust === undefined || path.trust.confirmedAt !== undefined;
}

/** Marks every path of a document about to be imported as imported and unconfirmed. */
export function markImported(document: BrainDocument, now: number): void {
  const importedAt = isoTime(now);
  for (const path of document.paths) path.trust = { origin: 'imported', importedAt };
}

/** The person looked at every step: the path replays like one learned here. */
export function confirmPath(document: BrainDocument, id: string, now: number): BrainPath {
  const path = document.paths.find((p) => p.id === id);
  if (!path) throw new GaiError('BRAIN_NOT_FOUND', `path: no path with id "${id}"`);
  if (!path.trust) return path;
  path.trust = { ...path.trust, confirmedAt: isoTime(now) };
  // A higher revision makes the confirmed copy win when another process merges its own.
  path.revision += 1;
  path.updatedAt = isoTime(now);
  return path;
}

/** The imported paths the person has not confirmed yet. */
export function unconfirmedPaths(document: BrainDocument): BrainPath[] {
  return document.paths.filter((path) => !isTrusted(path));
}
