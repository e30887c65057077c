// What the in-host specs need from the test support code, bundled by esbuild into one CommonJS
// file (test/vscode/extension.test.ts builds it) because the extension host cannot load
// TypeScript. The scripted Messages API server then runs inside the host, so a spec can queue
// the model's replies next to the actions it takes.
export { ScriptedMessagesServer } from '../../../support/scriptedMessagesServer';
export { textReply, toolReply } from '../../../support/scriptedSteps';
export { useScriptedModel, waitFor } from './hostHelpers';
