import { runAsProgram } from './main';

// dist/mcpServer.js: `gai mcp` for whoever has no CLI (the .vsix ships no dist/cli.js). The same
// composition and flags as `gai mcp`: config file, policy profile, app permissions, brain.
runAsProgram(['mcp']);
