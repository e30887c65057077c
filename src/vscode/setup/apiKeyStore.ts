import type * as vscode from 'vscode';

const SECRET_KEY = 'gai.apiKey';

/**
 * The API key lives in SecretStorage (the OS keychain), never in settings, logs or the webview.
 * Without one there, `ANTHROPIC_API_KEY` (and the other provider variables) from the
 * environment VS Code was started in are used.
 */
export class ApiKeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    /**
     * SecretStorage only lives in memory here (VS Code for the Web, a web-hosted remote): no OS
     * keychain, the key is gone when the window closes. Said to the person instead of promising a keychain.
     */
    readonly memoryOnly = false,
  ) {}

  /** Where a stored key is kept, in words; undefined for the OS keychain (the expected place). */
  storageNote(envVar: string): string | undefined {
    return this.memoryOnly
      ? `VS Code for the Web: the key is not in the OS keychain here and may be kept only in memory, forgotten when this window closes. Set ${envVar} in the environment VS Code starts from to keep one.`
      : undefined;
  }

  get(): Promise<string | undefined> {
    return Promise.resolve(this.secrets.get(SECRET_KEY)).then((key) => (key && key.trim() !== '' ? key : undefined));
  }

  /** An empty key removes the stored one. */
  async set(key: string): Promise<void> {
    const trimmed = key.trim();
    if (trimmed === '') await this.secrets.delete(SECRET_KEY);
    else await this.secrets.store(SECRET_KEY, trimmed);
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((event) => {
      if (event.key === SECRET_KEY) listener();
    });
  }
}
