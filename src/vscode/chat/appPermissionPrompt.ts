// The extension's question before the agent first acts in an app: a modal with the four choices.
import * as vscode from 'vscode';
import { summarizeCall } from '../../tools/callPreview';
import type { AppChoice, AppPermissionPrompt } from '../../safety/appPermissions';

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
