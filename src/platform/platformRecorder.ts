import type { InputRecorderPort, InputRecording, RecordingHandlers, RecordingOptions } from '../desktop/ports/inputRecorderPort';
import { describeSession, detectDisplaySession } from './linux/displaySession';
import { X11InputRecorder } from './linux/x11/x11InputRecorder';

/** The recorder of the person's input (Record Steps) on this platform; nothing starts until a recording does. */
export function createPlatformRecorder(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): InputRecorderPort {
  if (platform === 'darwin') return new UnavailableRecorder("recording the person's input is not built for macOS yet");
  if (platform === 'win32') return new UnavailableRecorder("recording the person's input is not built for Windows yet");
  if (platform !== 'linux') return new UnavailableRecorder(`recording the person's input is not available on ${platform}`);
  const session = detectDisplaySession(env);
  if (session.kind === 'x11') return new X11InputRecorder({ env });
  if (session.kind === 'wayland') {
    // XWayland's display would show only the input of X11 apps: a recording with holes is worse than none.
    return new UnavailableRecorder(
      "recording the person's input is not possible on Wayland: the compositor gives no program the input of other windows; " +
        "record on GAI's own desktop (--desktop own) or an X11 session",
    );
  }
  return new UnavailableRecorder(`recording the person's input needs a display: ${describeSession(session)}`);
}

/** Every record() fails with the reason this platform cannot record. */
export class UnavailableRecorder implements InputRecorderPort {
  constructor(private readonly why: string) {}

  record(_options: RecordingOptions, _handlers: RecordingHandlers): Promise<InputRecording> {
    return Promise.reject(new Error(this.why));
  }
}
