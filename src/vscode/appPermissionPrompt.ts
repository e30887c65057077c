// The extension's side of per-app permissions: the modal question and the "always"/"never"
// answers kept in the extension's global state.
import * as vscode from 'vscode';
import { summarizeCall } from '../tools/callPreview';
import type { AppChoice, AppPermissionPrompt } from '../tools/appPermissions';
import {
  emptyPermissions,
  validateStoredPermissions,
  withDecision,
  type AppPermissionStore,
  type StoredAppDecision,
  type StoredPermissions,
} from '../tools/appPermissionStore';

const STATE_KEY = 'gai.appPermissions';

/** "always"/"never" in globalState; an unreadable value is an error, never an empty list. */
export class MementoAppPermissionStore implements AppPermissionStore {
  readonly where = `VS Code global state (${STATE_KEY})`;

  constructor(private readonly memento: vscode.Memento) {}

  get(appKey: string): Promise<StoredAppDecision | undefined> {
    return Promise.resolve(this.read().apps[appKey]?.decision);
  }

  all(): Promise<Record<string, StoredAppDecision>> {
    return Promise.resolve(Object.fromEntries(Object.entries(this.read().apps).map(([key, entry]) => [key, entry.decision])));
  }

  async set(appKey: string, decision: StoredAppDecision): Promise<void> {
    await this.memento.update(STATE_KEY, withDecision(this.read(), appKey, decision));
  }

  private read(): StoredPermissions {
    const value = this.memento.get<unknown>(STATE_KEY);
    return value === undefined ? emptyPermissions() : validateStoredPermissions(value, this.where);
  }
}

const BUTTONS: ReadonlyArray<[string, AppChoice]> = [
  ['Once', 'once'],
  ['This conversation', 'conversation'],
  ['Always', 'always'],
  ['Never', 'never'],
];

/** A modal: the person must answer before the agent acts there (Escape: not now). */
export const modalAppPrompt: AppPermissionPrompt = async (request) => {
  const window = request.title ? ` Window: "${request.title}".` : '';
  const choice = await vscode.window.showWarningMessage(
    `Allow GAI to act in ${request.app}?`,
    {
      modal: true,
      detail: `The agent wants to run ${summarizeCall(request.call)} in ${request.app}.${window} "Always" and "Never" are remembered; gai.apps.allow and gai.apps.deny override them.`,
    },
    ...BUTTONS.map(([label]) => label),
  );
  return BUTTONS.find(([label]) => label === choice)?.[1];
};
