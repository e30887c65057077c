// nut-js loads a native addon and connects to the display when first required, so it is
// loaded on first use only (activation of the extension stays fast, a CLI `tools` listing
// never touches the display).

import { DesktopUnavailableError } from '../../common/errors';

export type NutModule = typeof import('@nut-tree-fork/nut-js');

let loading: Promise<NutModule> | undefined;

export function loadNut(): Promise<NutModule> {
  // libnut opens the X display on load; without one it takes the whole process down.
  if (process.platform === 'linux' && !process.env.DISPLAY) {
    return Promise.reject(noDisplay());
  }
  loading ??= import('@nut-tree-fork/nut-js').then(
    (nut) => {
      // The defaults wait 300 ms per key and 100 ms per mouse action; tools pace themselves.
      nut.keyboard.config.autoDelayMs = 0;
      nut.mouse.config.autoDelayMs = 0;
      nut.mouse.config.mouseSpeed = 100_000;
      return nut;
    },
    (error: unknown) => {
      loading = undefined;
      throw nutMissing(error);
    },
  );
  return loading;
}

/**
 * libnut publishes its addon for linux-x64, win32-x64 and macOS only: on an arm64 Linux or
 * Windows the `bindings` package throws a long list of paths. Said in one line instead.
 */
export function nutMissing(error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (!/Could not locate the bindings file|libnut\.node|not a valid Win32 application|wrong ELF class/.test(message)) return error;
  return new DesktopUnavailableError(
    `mouse, keyboard and screen capture are not available on ${process.platform}-${process.arch}: nut-js's libnut publishes no prebuilt addon for this CPU`,
    'GAI drives the mouse and keyboard on linux-x64, win32-x64 and macOS (Intel and Apple silicon); see docs/packaging.md',
  );
}

/** Neither an X display nor a Wayland session GAI drives: what the person is told, and what to do. */
export function noDisplay(): DesktopUnavailableError {
  return new DesktopUnavailableError('no display: DISPLAY is not set, and no Wayland session GAI drives was found', 'run GAI inside an X11 session, sway, GNOME or KDE Plasma (gai doctor says what it found)');
}
