import { GaiError } from '../common/errors';
import type { AppLauncher } from '../desktop/ports/appLauncherPort';
import type { Desktop, PlatformName } from '../desktop/ports/desktop';
import type { OcrEngine } from '../desktop/ports/ocrPort';
import { AtspiAccessibility } from './linux/atspi/atspiAccessibility';
import { DesktopBridge } from './linux/desktopBridge';
import { LinuxAppLauncher, MacAppLauncher, WindowsAppLauncher } from './linux/appLaunchers';
import { NutInput } from './nut/nutInput';
import { NutScreen } from './nut/nutScreen';
import { NutWindows } from './nut/nutWindows';
import { SharpImages } from './images/sharpImages';
import { X11Windows } from './linux/x11/x11Windows';
import { FRAMEBUFFER_VAR, FramebufferScreen } from './linux/x11/framebufferScreen';
import { XdotoolInput } from './linux/x11/xdotoolInput';
import { TesseractJsOcr } from './ocr/tesseractJsOcr';
import { LayeredOcr } from '../desktop/ocr/layeredOcr';
import { detectDisplaySession, type DisplaySession } from './linux/displaySession';
import { createWaylandPorts } from './linux/wayland/waylandDesktop';
import { createMacPorts } from './macos/macDesktop';
import { createWindowsPorts } from './windows/windowsDesktop';

export interface PlatformDesktopOptions {
  /** Tesseract language(s), e.g. `eng` or `eng+deu`. */
  ocrLanguage?: string;
  /** Replaces the default OCR (tesseract.js with a second pass for small text). */
  ocr?: OcrEngine;
  /** For launched apps and X11 tools; the display they talk to. */
  env?: NodeJS.ProcessEnv;
  /** Whether a value holds a secret registered at run time: such variables are not passed to launched apps. */
  holdsSecret?: (value: string) => boolean;
  /** Programs launch_app may start without a desktop entry / Start menu entry (gai.launch.allow, CLI launch.allow). */
  launchAllow?: readonly string[];
  /** Told when a desktop adapter falls back to a slower path (e.g. windows read with xprop), and why. */
  onWarning?: (message: string) => void;
  /** How long the desktop bridge's helper may sit idle before it ends (DesktopBridgeOptions.idleMs); 0: never. */
  bridgeIdleMs?: number;
}

/**
 * The desktop of the machine we run on. Nothing here touches the display until a tool runs:
 * nut-js, sharp and the OCR worker load on first use.
 */
export function createPlatformDesktop(options: PlatformDesktopOptions = {}): Desktop {
  const platform = process.platform;
  if (platform !== 'linux' && platform !== 'darwin' && platform !== 'win32') {
    throw new GaiError('CONFIG', `GAI's desktop tools support Linux (X11), macOS and Windows, not ${platform}`);
  }
  const env = options.env ?? process.env;
  const session = platform === 'linux' ? detectDisplaySession(env) : undefined;
  if (session?.kind === 'wayland') return waylandDesktop(session, env, options);
  // libnut holds this process's display: another display (GAI's own desktop seen from the editor)
  // is read from Xvfb's framebuffer file and driven through xdotool.
  const framebuffer = platform === 'linux' && env.DISPLAY !== process.env.DISPLAY ? env[FRAMEBUFFER_VAR] : undefined;
  const screen = framebuffer ? new FramebufferScreen(framebuffer) : new NutScreen();
  const scale = (): Promise<number> => screen.scaleFactor();
  // One python3 helper keeps the X connection and the accessibility tree warm for both ports.
  const bridge = platform === 'linux' ? new DesktopBridge(env, { idleMs: options.bridgeIdleMs }) : undefined;
  // Windows: one PowerShell helper for the windows and the UI Automation tree (boxes scaled to the screenshots).
  const win = platform === 'win32' ? createWindowsPorts(env, { screenSize: () => screen.size(), ...(options.onWarning ? { onWarning: options.onWarning } : {}), ...(options.bridgeIdleMs !== undefined ? { idleMs: options.bridgeIdleMs } : {}) }) : undefined;
  // macOS: one osascript (JXA) helper for the windows with bundle ids and the AX tree, its boxes in the screen port's pixels.
  const mac = platform === 'darwin' ? createMacPorts(env, { scaleFactor: scale, ...(options.onWarning ? { onWarning: options.onWarning } : {}), helper: { ...(options.bridgeIdleMs !== undefined ? { idleMs: options.bridgeIdleMs } : {}) } }) : undefined;
  const nativeTree = win?.accessibility ?? mac?.accessibility;
  const ocr = options.ocr ?? new LayeredOcr(new TesseractJsOcr({ language: options.ocrLanguage }));
  return {
    platform: platform satisfies PlatformName,
    screen,
    input: framebuffer ? new XdotoolInput(env) : new NutInput(scale, platform),
    ocr,
    windows: bridge ? new X11Windows(env, { bridge, onWarning: options.onWarning }) : (win?.windows ?? mac?.windows ?? new NutWindows(scale)),
    launcher: launcherFor(platform, env, options.holdsSecret, options.launchAllow),
    images: new SharpImages(),
    // Finds labels OCR misses (single glyphs on buttons); checks on first use whether it works.
    ...(bridge ? { accessibility: new AtspiAccessibility(env, {}, bridge) } : nativeTree ? { accessibility: nativeTree } : {}),
    async dispose() {
      await Promise.all([ocr.dispose(), bridge?.dispose(), win?.dispose(), mac?.dispose()]);
    },
  };
}

/**
 * A Wayland session: nut-js and the X11 helpers are never loaded (through a rootless XWayland
 * they read nothing and Xlib ends the process on the error).
 */
function waylandDesktop(session: Extract<DisplaySession, { kind: 'wayland' }>, env: NodeJS.ProcessEnv, options: PlatformDesktopOptions): Desktop {
  const ocr = options.ocr ?? new LayeredOcr(new TesseractJsOcr({ language: options.ocrLanguage }));
  const ports = createWaylandPorts(session, env, { bridgeIdleMs: options.bridgeIdleMs, ocr });
  return {
    platform: 'linux',
    screen: ports.screen,
    input: ports.input,
    ocr,
    windows: ports.windows,
    launcher: launcherFor('linux', env, options.holdsSecret, options.launchAllow),
    images: new SharpImages(),
    ...(ports.accessibility ? { accessibility: ports.accessibility } : {}),
    async dispose() {
      await Promise.all([ocr.dispose(), ports.dispose()]);
    },
  };
}

function launcherFor(
  platform: PlatformName,
  env: NodeJS.ProcessEnv,
  holdsSecret?: (value: string) => boolean,
  launchAllow: readonly string[] = [],
): AppLauncher {
  if (platform === 'darwin') return new MacAppLauncher(holdsSecret);
  if (platform === 'win32') return new WindowsAppLauncher(holdsSecret, launchAllow);
  return new LinuxAppLauncher(env, holdsSecret, launchAllow);
}
