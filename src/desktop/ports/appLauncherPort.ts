export interface LaunchResult {
  /** How it was started, e.g. `desktop entry gai-fixture.desktop`, `executable /usr/bin/xcalc`. */
  method: string;
  pid?: number;
}

export interface AppLauncher {
  /** Starts the application; does not wait for its window (the tool does that). */
  launch(appName: string, signal?: AbortSignal): Promise<LaunchResult>;
}
