import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// Which kind of desktop GAI was started in, read from the environment the person's session
// gives every program (XDG_SESSION_TYPE, WAYLAND_DISPLAY, the compositor's own variables) and
// the sockets in XDG_RUNTIME_DIR. Nothing here connects to anything.

/** The Wayland compositor families GAI tells apart: each is driven (or not) in its own way. */
export type Compositor = 'sway' | 'wlroots' | 'gnome' | 'kde' | 'unknown';

export type DisplaySession =
  | { kind: 'x11'; display: string }
  | {
      kind: 'wayland';
      compositor: Compositor;
      /** What the person would call it: "sway", "GNOME (Mutter)", "Hyprland"… */
      name: string;
      /** The Wayland socket's name (WAYLAND_DISPLAY) and the directory it is in. */
      display: string;
      runtimeDir: string;
      /** sway's IPC socket (SWAYSOCK, or the one found in XDG_RUNTIME_DIR). */
      swaySocket?: string;
      /** XWayland's display, when the session has one: it reaches X11 apps only. */
      xwayland?: string;
    }
  | { kind: 'none' };

export function detectDisplaySession(env: NodeJS.ProcessEnv = process.env): DisplaySession {
  const type = (env.XDG_SESSION_TYPE ?? '').toLowerCase();
  const wayland = env.WAYLAND_DISPLAY?.trim();
  if (wayland && type !== 'x11') return waylandSession(env, wayland);
  if (env.DISPLAY?.trim()) return { kind: 'x11', display: env.DISPLAY.trim() };
  return { kind: 'none' };
}

function waylandSession(env: NodeJS.ProcessEnv, display: string): DisplaySession {
  const runtimeDir = env.XDG_RUNTIME_DIR ?? '';
  const xwayland = env.DISPLAY?.trim() || undefined;
  const base = { kind: 'wayland' as const, display, runtimeDir, ...(xwayland ? { xwayland } : {}) };
  const swaySocket = swaySocketOf(env, runtimeDir);
  const desktop = (env.XDG_CURRENT_DESKTOP ?? env.XDG_SESSION_DESKTOP ?? '').toLowerCase();
  if (swaySocket && (desktop === '' || desktop.includes('sway'))) return { ...base, compositor: 'sway', name: 'sway', swaySocket };
  if (desktop.includes('gnome') || desktop.includes('ubuntu') || desktop.includes('unity')) return { ...base, compositor: 'gnome', name: 'GNOME (Mutter)' };
  if (desktop.includes('kde') || desktop.includes('plasma')) return { ...base, compositor: 'kde', name: 'KDE Plasma (KWin)' };
  if (env.HYPRLAND_INSTANCE_SIGNATURE) return { ...base, compositor: 'wlroots', name: 'Hyprland' };
  for (const name of ['river', 'labwc', 'wayfire', 'hyprland', 'niri', 'cosmic']) {
    if (desktop.includes(name)) return { ...base, compositor: name === 'niri' || name === 'cosmic' ? 'unknown' : 'wlroots', name };
  }
  if (swaySocket) return { ...base, compositor: 'sway', name: 'sway', swaySocket };
  return { ...base, compositor: 'unknown', name: desktop || 'an unknown Wayland compositor' };
}

function swaySocketOf(env: NodeJS.ProcessEnv, runtimeDir: string): string | undefined {
  if (env.SWAYSOCK && existsSync(env.SWAYSOCK)) return env.SWAYSOCK;
  if (!runtimeDir) return undefined;
  try {
    const found = readdirSync(runtimeDir).filter((name) => /^sway-ipc\.\d+\.\d+\.sock$/.test(name));
    return found.length === 1 ? join(runtimeDir, found[0]!) : undefined;
  } catch {
    return undefined;
  }
}

/** One line for Check Setup, `gai doctor` and errors: the session and how GAI reaches it. */
export function describeSession(session: DisplaySession): string {
  if (session.kind === 'x11') return `X11 (DISPLAY=${session.display})`;
  if (session.kind === 'none') return 'no display (neither DISPLAY nor WAYLAND_DISPLAY is set)';
  return `Wayland, ${session.name} (WAYLAND_DISPLAY=${session.display}${session.xwayland ? `, XWayland DISPLAY=${session.xwayland}` : ''})`;
}
