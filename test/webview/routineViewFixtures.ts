// Routines for the brain view's tests, built by hand: "Replace words" (recorded in Mousepad,
// two parameters, a crop per anchored step, an optional last step and a proposal the person
// made for its Replace All click) and "Save as PDF" (imported, not confirmed yet).
import type { BrainDocument, Thumbnail } from '../../src/navigation/store/brainTypes';
import type { Routine, RoutineStep } from '../../src/navigation/store/routineTypes';
import { settingsBrain, T0 } from './brainViewFixtures';

/** A stand-in PNG (the unit tests only pass it along). */
export const TINY_PNG: Thumbnail = { mediaType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', width: 1, height: 1 };

export interface RoutineCrops {
  search?: Thumbnail;
  replace?: Thumbnail;
  button?: Thumbnail;
  proposal?: Thumbnail;
}

const MOUSEPAD = { app: 'mousepad', title: 'notes.txt - Mousepad' };

export function replaceWordsRoutine(crops: RoutineCrops = {}): Routine {
  const withCrop = (crop: Thumbnail | undefined) => (crop ? { crop } : {});
  const steps: RoutineStep[] = [
    { id: 's-open', kind: 'key', key: 'h', modifiers: ['ctrl'], anchors: { window: MOUSEPAD, landmarks: [] } },
    {
      id: 's-find',
      kind: 'type',
      text: '{find}',
      anchors: { window: MOUSEPAD, element: { role: 'text', name: 'Search for', ancestors: [] }, landmarks: [], point: { x: 420, y: 180 }, ...withCrop(crops.search) },
    },
    {
      id: 's-replace',
      kind: 'type',
      text: '{replace} and more',
      pressEnter: true,
      anchors: { window: MOUSEPAD, element: { role: 'text', name: 'Replace with', ancestors: [] }, landmarks: [], point: { x: 420, y: 214 }, ...withCrop(crops.replace) },
    },
    {
      id: 's-all',
      kind: 'click',
      button: 'left',
      anchors: { window: MOUSEPAD, element: { role: 'push button', name: 'Replace All', ancestors: [] }, label: 'Replace All', landmarks: [], point: { x: 610, y: 260 }, ...withCrop(crops.button) },
    },
    { id: 's-close', kind: 'click', button: 'left', optional: true, anchors: { window: MOUSEPAD, element: { role: 'push button', name: 'Close', ancestors: [] }, landmarks: [] } },
  ];
  return {
    id: 'replace-words',
    name: 'Replace words',
    description: 'Search and replace in the open Mousepad file',
    parameters: [
      { name: 'find', description: 'The word to look for', default: 'cat' },
      { name: 'replace', default: 'dog' },
    ],
    steps,
    origin: 'recorded',
    runs: { successes: 3, failures: 1, lastRunAt: T0, lastFailure: { at: T0, step: 3, reason: 'step 4 (click "Replace All"): not found' } },
    proposals: [
      {
        stepId: 's-all',
        reason: '"Replace All" was not found in mousepad',
        by: 'person',
        step: { id: 's-all', kind: 'click', button: 'left', anchors: { window: MOUSEPAD, element: { role: 'push button', name: 'Replace all', ancestors: [] }, label: 'Replace all', landmarks: [], ...withCrop(crops.proposal) } },
        at: T0,
      },
    ],
    createdAt: T0,
    updatedAt: T0,
    revision: 4,
  };
}

export function importedRoutine(): Routine {
  return {
    id: 'save-as-pdf',
    name: 'Save as PDF',
    parameters: [],
    steps: [
      { id: 'e1', kind: 'click', button: 'left', anchors: { window: { app: 'libreoffice', title: 'report.odt - LibreOffice Writer' }, element: { role: 'menu item', name: 'Export as PDF', ancestors: [] }, landmarks: [] } },
      { id: 'e2', kind: 'key', key: 'Return', modifiers: [], anchors: { landmarks: [] } },
    ],
    origin: 'imported',
    runs: { successes: 0, failures: 0 },
    proposals: [],
    createdAt: T0,
    updatedAt: T0,
    revision: 1,
  };
}

/** The settings brain of the graph tests with both routines. */
export function routinesBrain(crops: RoutineCrops = {}): BrainDocument {
  const document = settingsBrain();
  document.routines = [replaceWordsRoutine(crops), importedRoutine()];
  return document;
}
