// The navigate_to tool run by the agent in the chat shows its steps like the Navigate To command
// does: a progress notification, "Step 2 of 3: click "Network"", while the tool runs. The tool
// itself knows nothing of VS Code; this follows the brain's observers for the call's duration.
import * as vscode from 'vscode';
import type { NavigationBrain, NavigationObserver } from '../../navigation/navigationBrain';
import { errorMessage } from '../../common/errors';

interface OpenNavigation {
  end(): void;
}

export class ChatNavigationProgress {
  private readonly open = new Map<string, OpenNavigation>();

  constructor(
    private readonly brain: () => Promise<NavigationBrain>,
    /** Each replayed step and the learning agent's events (the audit trail, the status bar's last action). */
    private readonly follow: Required<Pick<NavigationObserver, 'onStep' | 'onEvent'>>,
    private readonly warn: (message: string) => void,
  ) {}

  /** A navigate_to call started: its steps are followed until finished() (nothing shows until the first step). */
  started(callId: string, target: string): void {
    let ended = false;
    let stopObserving: (() => void) | undefined;
    let notification: { report(message: string): void; close(): void } | undefined;
    const show = (message: string): void => {
      if (ended) return;
      notification ??= progressNotification(`GAI: navigating to "${target}"`);
      notification.report(message);
    };
    const observer: NavigationObserver = { onProgress: show, onStep: this.follow.onStep, onEvent: this.follow.onEvent };
    this.brain()
      .then((brain) => {
        if (!ended) stopObserving = brain.observe(observer);
      })
      .catch((error: unknown) => this.warn(`navigation progress: ${errorMessage(error)}`));
    this.open.set(callId, {
      end: () => {
        ended = true;
        stopObserving?.();
        notification?.close();
      },
    });
  }

  finished(callId: string): void {
    this.open.get(callId)?.end();
    this.open.delete(callId);
  }

  dispose(): void {
    for (const navigation of this.open.values()) navigation.end();
    this.open.clear();
  }
}

/** A notification that stays until close(); report() replaces its line. */
function progressNotification(title: string): { report(message: string): void; close(): void } {
  let close!: () => void;
  const closed = new Promise<void>((resolve) => (close = resolve));
  let progress: vscode.Progress<{ message?: string }> | undefined;
  let pending: string | undefined;
  void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, (shown) => {
    progress = shown;
    if (pending !== undefined) shown.report({ message: pending });
    return closed;
  });
  return {
    report: (message) => {
      if (progress) progress.report({ message });
      else pending = message;
    },
    close,
  };
}
