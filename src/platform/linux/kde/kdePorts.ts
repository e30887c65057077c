import type { OcrEngine } from '../../../desktop/ports/ocrPort';
import { AtspiAccessibility } from '../atspi/atspiAccessibility';
import { DesktopBridge } from '../desktopBridge';
import { portalTokenFile } from '../gnome/gnomePorts';
import { MutterLayout } from '../gnome/mutterLayout';
import { MUTTER_HELPER_SCRIPT } from '../wayland/mutterHelperScript';
import type { WaylandPorts } from '../wayland/waylandPorts';
import { WaylandHelper } from '../wayland/waylandHelper';
import { WaylandInput } from '../wayland/waylandInput';
import { WaylandScreen } from '../wayland/waylandScreen';
import { KwinWindows } from './kwinWindows';

const PORTAL_HELPER = {
  script: MUTTER_HELPER_SCRIPT,
  hint: 'GAI drives KDE Plasma on Wayland through the desktop portal\'s RemoteDesktop and ScreenCast (xdg-desktop-portal and xdg-desktop-portal-kde), with PipeWire running (pipewire, wireplumber) and python3-gi, gir1.2-gstreamer-1.0 and gstreamer1.0-pipewire installed; or log into "Plasma (X11)"',
};

/**
 * KDE Plasma on Wayland (KWin): screen and input through one session of the desktop portal
 * (KWin lists its own fake-input and screen-cast interfaces only to the programs its desktop
 * files name), windows and their places from KWin's scripting, so the accessibility tree is
 * placed exactly, with no reading of the screen.
 */
export function createKdePorts(env: NodeJS.ProcessEnv, options: { bridgeIdleMs?: number; ocr: OcrEngine }): WaylandPorts {
  const helper = new WaylandHelper({ GAI_PORTAL_TOKEN_FILE: portalTokenFile(env), ...env, GAI_DESKTOP_ROUTE: 'portal' }, PORTAL_HELPER);
  const layout = new MutterLayout(helper);
  const bridgeEnv = { ...env, GAI_WINDOW_HINTS: 'kwin' };
  const bridge = new DesktopBridge(bridgeEnv, { idleMs: options.bridgeIdleMs });
  return {
    screen: new WaylandScreen(helper, layout),
    input: new WaylandInput(helper, layout),
    windows: new KwinWindows(bridge),
    accessibility: new AtspiAccessibility(bridgeEnv, {}, bridge),
    dispose: async () => {
      await Promise.all([helper.dispose(), bridge.dispose()]);
    },
  };
}
