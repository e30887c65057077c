// "Always"/"never" answers to "Allow GAI to act in <app>?" in the extension's global state.
// Only the Memento's shape is used, so the store runs in unit tests without VS Code.
import {
  emptyPermissions,
  validateStoredPermissions,
  withDecision,
  type AppPermissionStore,
  type StoredAppDecision,
  type StoredPermissions,
} from '../safety/appPermissionStore';

/** What the store needs of vscode.Memento (context.globalState). */
export interface StateMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export const APP_PERMISSIONS_STATE_KEY = 'gai.appPermissions';

/** An unreadable stored value is an error, never an empty list: a "never" must not be forgotten. */
export class MementoAppPermissionStore implements AppPermissionStore {
  readonly where = `VS Code global state (${APP_PERMISSIONS_STATE_KEY})`;

  constructor(private readonly memento: StateMemento) {}

  get(appKey: string): Promise<StoredAppDecision | undefined> {
    return Promise.resolve().then(() => this.read().apps[appKey]?.decision);
  }

  all(): Promise<Record<string, StoredAppDecision>> {
    return Promise.resolve().then(() => Object.fromEntries(Object.entries(this.read().apps).map(([key, entry]) => [key, entry.decision])));
  }

  async set(appKey: string, decision: StoredAppDecision): Promise<void> {
    await this.memento.update(APP_PERMISSIONS_STATE_KEY, withDecision(this.read(), appKey, decision));
  }

  private read(): StoredPermissions {
    const value = this.memento.get<unknown>(APP_PERMISSIONS_STATE_KEY);
    return value === undefined ? emptyPermissions() : validateStoredPermissions(value, this.where);
  }
}
