import { DesktopUnavailableError } from '../../../common/errors';
import type { BBox } from '../../../common/geometry';
import type { InputPort } from '../../../desktop/ports/inputPort';
import type { ScreenImage, ScreenPort, ScreenSize } from '../../../desktop/ports/screenPort';
import type { WindowInfo, WindowPort } from '../../../desktop/ports/windowPort';
import type { DisplaySession } from '../displaySession';
import type { WaylandPorts } from './waylandPorts';
import { AtspiAccessibility } from '../atspi/atspiAccessibility';
import { DesktopBridge } from '../desktopBridge';
import { GrimScreen } from './grimScreen';
import { SwayIpc } from './swayIpc';
import { SwayLayout } from './waylandLayout';
import { SwayWindows } from './swayWindows';
import { WaylandHelper } from './waylandHelper';
import { WaylandInput } from './waylandInput';
import { WaylandScreen } from './waylandScreen';
import { createGnomePorts } from '../gnome/gnomePorts';
import { createKdePorts } from '../kde/kdePorts';
import type { OcrEngine } from '../../../desktop/ports/ocrPort';

type WaylandSession = Extract<DisplaySession, { kind: 'wayland' }>;

export function createWaylandPorts(session: WaylandSession, env: NodeJS.ProcessEnv, options: { bridgeIdleMs?: number; ocr: OcrEngine }): WaylandPorts {
  if (session.compositor === 'gnome') return createGnomePorts(env, options);
  if (session.compositor === 'kde') return createKdePorts(env, options);
  if (session.compositor === 'sway' && session.swaySocket) {
    const sway = new SwayIpc(session.swaySocket);
    const layout = new SwayLayout(sway);
    const helper = new WaylandHelper(env);
    const input = new WaylandInput(helper, layout);
    // The bridge's tree walk asks sway where each window is (bridgeSwayScript.ts).
    const bridgeEnv = { ...env, SWAYSOCK: session.swaySocket };
    const bridge = new DesktopBridge(bridgeEnv, { idleMs: options.bridgeIdleMs });
    return {
      screen: new WaylandScreen(helper, layout, new GrimScreen(env, layout)),
      input,
      windows: new SwayWindows(sway),
      accessibility: new AtspiAccessibility(bridgeEnv, {}, bridge),
      dispose: async () => {
        await Promise.all([helper.dispose(), bridge.dispose()]);
      },
    };
  }
  const why = unsupportedReason(session);
  return { screen: new UnavailableScreen(why), input: unavailableInput(why), windows: new UnavailableWindows(why), dispose: async () => undefined };
}

/** Why GAI cannot drive this Wayland session yet, and what the person can do. */
export function unsupportedReason(session: WaylandSession): DesktopUnavailableError {
  const x11 = 'or log into an X11 session ("GNOME on Xorg", "Plasma (X11)") where GAI works fully';
  switch (session.compositor) {
    case 'wlroots':
      return new DesktopUnavailableError(
        `${session.name} is a wlroots-style compositor, but GAI reads windows only through sway's IPC`,
        `use sway, ${x11}`,
      );
    default:
      return new DesktopUnavailableError(`GAI does not know how to drive ${session.name} (WAYLAND_DISPLAY=${session.display})`, `use sway, ${x11}`);
  }
}

class UnavailableScreen implements ScreenPort {
  constructor(private readonly why: DesktopUnavailableError) {}
  size(): Promise<ScreenSize> {
    return Promise.reject(this.why);
  }
  scaleFactor(): Promise<number> {
    return Promise.reject(this.why);
  }
  grab(_region?: BBox): Promise<ScreenImage> {
    return Promise.reject(this.why);
  }
}

class UnavailableWindows implements WindowPort {
  constructor(private readonly why: DesktopUnavailableError) {}
  activeWindow(): Promise<WindowInfo | undefined> {
    return Promise.reject(this.why);
  }
}

function unavailableInput(why: DesktopUnavailableError): InputPort {
  const fail = (): Promise<never> => Promise.reject(why);
  return {
    move: fail,
    position: fail,
    click: fail,
    drag: fail,
    dragAlong: fail,
    mouseDown: fail,
    mouseUp: fail,
    scroll: fail,
    typeText: fail,
    pressKey: fail,
    holdKey: fail,
    isKnownKey: () => true,
  };
}
