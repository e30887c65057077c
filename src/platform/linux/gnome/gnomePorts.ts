import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { OcrEngine } from '../../../desktop/ports/ocrPort';
import { AtspiAccessibility } from '../atspi/atspiAccessibility';
import { DesktopBridge } from '../desktopBridge';
import { MUTTER_HELPER_SCRIPT } from '../wayland/mutterHelperScript';
import type { WaylandPorts } from '../wayland/waylandPorts';
import { WaylandHelper } from '../wayland/waylandHelper';
import { WaylandInput } from '../wayland/waylandInput';
import { WaylandScreen } from '../wayland/waylandScreen';
import { GnomeWindows } from './gnomeWindows';
import { MutterLayout } from './mutterLayout';
import { PlacedTree } from './placedTree';
import { WindowPlacer } from './windowPlacer';

const MUTTER_HELPER = {
  script: MUTTER_HELPER_SCRIPT,
  hint: 'GAI drives GNOME through Mutter\'s remote-desktop interfaces on the session bus, or the desktop portal\'s (xdg-desktop-portal-gnome; GAI_GNOME_ROUTE=portal), with PipeWire running (pipewire, wireplumber) and python3-gi, gir1.2-gstreamer-1.0 and gstreamer1.0-pipewire installed; or log into "GNOME on Xorg"',
};

/**
 * Where the desktop portal's restore token is kept ($XDG_STATE_HOME/gai): with it, a later
 * session through the portal starts without asking the person again, where the portal keeps one.
 */
export function portalTokenFile(env: NodeJS.ProcessEnv): string {
  const state = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(env.HOME || homedir(), '.local', 'state');
  return join(state, 'gai', 'remote-desktop-token');
}

/**
 * GNOME on Wayland (Mutter, with or without GNOME Shell): screen and input through one remote
 * desktop session of Mutter's own D-Bus interfaces, the accessibility tree placed on the screen
 * by matching its labels with the screen's text.
 */
export function createGnomePorts(env: NodeJS.ProcessEnv, options: { bridgeIdleMs?: number; ocr: OcrEngine }): WaylandPorts {
  const helper = new WaylandHelper({ GAI_PORTAL_TOKEN_FILE: portalTokenFile(env), ...env }, MUTTER_HELPER);
  const layout = new MutterLayout(helper);
  const screen = new WaylandScreen(helper, layout);
  // The bridge reads boxes as the toolkits report them (window-relative); PlacedTree moves them.
  const bridgeEnv = { ...env, GAI_UNPLACED_TREE: '1' };
  const bridge = new DesktopBridge(bridgeEnv, { idleMs: options.bridgeIdleMs });
  const placer = new WindowPlacer(screen, options.ocr);
  const tree = new AtspiAccessibility(bridgeEnv, {}, bridge);
  const accessibility = new PlacedTree(tree, placer);
  return {
    screen,
    input: new WaylandInput(helper, layout),
    windows: new GnomeWindows(accessibility, screen, tree, placer),
    accessibility,
    dispose: async () => {
      await Promise.all([helper.dispose(), bridge.dispose()]);
    },
  };
}
