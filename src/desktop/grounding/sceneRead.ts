import type { BBox } from '../../common/geometry';
import { sleep } from '../../common/timing';
import type { WindowPort } from '../ports/windowPort';
import { readScene, type WindowScene } from './windowScene';

// Right after a click the X server may name no active window for a moment (the focus is moving
// to the window clicked). Without an active window the locator falls back to reading the whole
// screen, many times the work of reading one window: a short wait for the focus to land first.

const FOCUS_RETRIES = 3;
const FOCUS_WAIT_MS = 40;

export async function readSettledScene(windows: WindowPort, screen: BBox, signal?: AbortSignal): Promise<WindowScene> {
  let scene = await readScene(windows, screen);
  for (let i = 0; i < FOCUS_RETRIES && !scene.active && scene.listed && scene.windows.length > 0; i++) {
    await sleep(FOCUS_WAIT_MS, signal);
    scene = await readScene(windows, screen);
  }
  return scene;
}
