import type { LiveDesktopPort } from '../../../desktop/ports/liveDesktopPort';
import { FRAMEBUFFER_VAR, FramebufferScreen } from './framebufferScreen';
import { XdotoolInput } from './xdotoolInput';

/** GAI's own desktop for the live view, when `env` is that desktop's (its framebuffer file named); else undefined. */
export function ownLiveDesktop(env: NodeJS.ProcessEnv): LiveDesktopPort | undefined {
  const framebuffer = env[FRAMEBUFFER_VAR];
  const display = env.DISPLAY;
  if (!framebuffer || !display) return undefined;
  const screen = new FramebufferScreen(framebuffer);
  return { display, readFrame: (into) => screen.readFrame(into), input: new XdotoolInput(env) };
}
