// Registers only the vscode-elements web components the brain view uses (each import defines
// its custom element), so its bundle does not carry the whole library.
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-toolbar-button/index.js';
