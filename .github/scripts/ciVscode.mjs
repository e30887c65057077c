// Downloads VS Code stable with @vscode/test-electron (CI has the network this needs) and prints
// VSCODE_EXECUTABLE=<path> for $GITHUB_ENV: test/vscode/support/hostLauncher.ts then runs the
// extension-host suite in it (GAI_VSCODE_LAUNCHER=electron).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { downloadAndUnzipVSCode } = require('@vscode/test-electron');
const executable = await downloadAndUnzipVSCode('stable');
console.log(`VSCODE_EXECUTABLE=${executable}`);
