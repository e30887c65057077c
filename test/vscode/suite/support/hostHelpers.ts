// Helpers every in-host spec uses (bundled into the host support file with the scripted server).

/** Polls until `predicate` gives something truthy; the error names what was awaited, with `dump()` when given. */
export async function waitFor<T>(what: string, predicate: () => T | Promise<T>, timeoutMs = 20_000, dump?: () => string): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${dump ? `; ${dump()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The part of the `vscode` module these helpers use (the spec passes its own: this bundle cannot load it). */
interface VscodeSettings {
  workspace: { getConfiguration(section: string): { update(key: string, value: unknown, target: number): Thenable<void> } };
  ConfigurationTarget: { Global: number };
}

/** GAI against the scripted Messages API server: reads run without asking, the fixture app may be acted in. */
export async function useScriptedModel(vscode: VscodeSettings, baseUrl: string): Promise<void> {
  const config = vscode.workspace.getConfiguration('gai');
  const global = vscode.ConfigurationTarget.Global;
  await config.update('provider', 'anthropic', global);
  await config.update('baseUrl', baseUrl, global);
  await config.update('autoApprove', ['read'], global);
  // The agent acts only in apps the person allowed; a modal would ask otherwise (unanswerable here).
  await config.update('apps.allow', ['GaiFixture', 'Code'], global);
}
