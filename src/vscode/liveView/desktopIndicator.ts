// Which desktop GAI works on, as the chat's header says it: the person's screen, or GAI's own
// desktop (with its display once it runs, and a way to watch it).
import type { HostMessage } from '../../shared/protocol';
import { ownDesktopPlace, readOwnDesktop } from '../../platform/linux/x11/ownDesktop';
import { desktopIn, type DesktopChoice } from '../settings';

export function desktopMessage(choice: DesktopChoice, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Extract<HostMessage, { type: 'desktop' }> {
  if (desktopIn(choice, env, platform) === 'screen') return { type: 'desktop', where: 'screen', label: 'your screen' };
  const running = platform === 'linux' ? readOwnDesktop(ownDesktopPlace(env)) : undefined;
  return { type: 'desktop', where: 'own', label: running ? `GAI's own desktop ${running.display}` : "GAI's own desktop (it starts with the first request)" };
}

/** GAI works on its own desktop and it is not running: opening the chat must not start it (the first request does). */
export function ownDesktopNotStarted(choice: DesktopChoice, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  return desktopIn(choice, env, platform) === 'own' && (platform !== 'linux' || readOwnDesktop(ownDesktopPlace(env)) === undefined);
}
