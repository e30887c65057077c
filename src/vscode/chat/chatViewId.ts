/** The chat view's id (package.json's views): VS Code gives it a `<id>.focus` command. */
export const CHAT_VIEW_ID = 'gai.chat';
