// VS Code's language model failures as GAI's typed errors, in plain words for the chat.
import { GaiError } from '../../common/errors';

/** What the provider shows when the host offers no chat model at all. */
export const NO_CHAT_MODEL =
  'No chat model is available in VS Code: install and sign in to GitHub Copilot Chat (GitHub.copilot-chat), or choose another provider in gai.provider.';

/** `vscode.LanguageModelError`, or a look-alike in tests. */
export type LanguageModelErrorClass = abstract new (...args: never[]) => Error & { readonly code: string };

/**
 * A LanguageModelError by its code (NoPermissions, Blocked, NotFound), a cancel, or any other
 * failure of the model call; `model` names the model for the sentence.
 */
export function mapLmError(error: unknown, model: string, errorClass: LanguageModelErrorClass, aborted: boolean): GaiError {
  if (aborted) return new GaiError('LLM_CANCELLED', 'cancelled by the user', { cause: error });
  if (error instanceof GaiError) return error;
  const said = error instanceof Error ? error.message : String(error);
  if (error instanceof errorClass) {
    switch (error.code) {
      case 'NoPermissions':
        return new GaiError('LLM_AUTH', `VS Code did not let GAI use the model ${model}: allow GAI when VS Code asks for access to the language model, then try again.`, { cause: error });
      case 'Blocked':
        return new GaiError('LLM_RATE_LIMITED', `VS Code blocked the request to the model ${model} (a quota or rate limit, or the request was refused). Wait a moment and try again.${said ? ` (${said})` : ''}`, { cause: error });
      case 'NotFound':
        return new GaiError('CONFIG', `The model ${model} is not available in VS Code any more: choose another in the chat's model picker or in gai.model.default.`, { cause: error });
    }
  }
  if (error instanceof Error && error.name === 'Canceled') return new GaiError('LLM_CANCELLED', 'cancelled by the user', { cause: error });
  return new GaiError('LLM_SERVER', `The VS Code model ${model} failed: ${said || 'no reason given'}`, { cause: error });
}
