// The GAI extension in a real VS Code extension host: test/vscode/suite/*.spec.cjs run inside it
// (see support/extensionHostRun.ts), and this file checks their report and every log of the run.
// Run alone: node --import=tsx node_modules/mocha/bin/mocha.js test/vscode/extension.test.ts
import assert from 'node:assert/strict';
import { runExtensionSuite } from './support/extensionHostRun';

/** The keys the specs store; they must appear in no log of the run. */
const SPEC_KEYS = ['sk-ant-gai-chat-test-9876543210-NOT-A-REAL-KEY', 'sk-ant-gai-host-test-0123456789-NOT-A-REAL-KEY', 'sk-ant-gai-audit-test-1234567890-NOT-A-REAL-KEY', 'sk-ant-gai-setup-test-1234567890-NOT-A-REAL-KEY'];

describe('GAI extension in a real VS Code extension host', function () {
  this.timeout(9 * 60_000);

  it('activates, registers commands, runs the chat against a scripted model, keeps the API key out of settings and logs', async () => {
    const { report, problem, result, launcher, serverLogs } = await runExtensionSuite();
    console.log(`      launcher: ${launcher.kind} (${launcher.why})`);
    const hostLog = `host log:\n${result.logs.slice(-80).join('\n')}`;
    if (!report) assert.fail(`${problem}; ${hostLog}`);
    assert.deepEqual(report.failures, [], hostLog);
    assert.equal(result.exitCode, 0);
    const titles = report.passes.map((test) => test.title);
    for (const expected of [
      'activates',
      'registers every command',
      'never in settings',
      'malformed webview messages',
      'chat view renders',
      'tool card, approval',
      'Stop cancels',
      "status-bar item shows the model's screen summary when asked",
      'leave one [audit] line with who decided',
      'last action without any model call',
      'Navigate To learns the way',
      'Show Brain draws the learned graph',
      'in the chat view title bar',
      'History reopens it and the model goes on from it',
      'one question for the first action in an app',
      "the chat's Stop ends a Navigate To",
      'is active after start-up before any GAI command',
      'survives the chat view being hidden and shown',
      'names the key and keeps the message',
      'answering 500 three times is said in plain words',
      'Check Setup lists the desktop parts',
      '@gai runs the agent on the chat\'s model',
      '@gai stops when the request\'s cancellation token fires',
      'gai.provider vscode-lm runs the chat agent with a tool call through it',
      'the chat says to install GitHub Copilot Chat',
      "vscode.lm.tools lists GAI's tools",
      'vscode.lm.invokeTool runs gai_ocr on the fixture',
      'vscode.lm.invokeTool runs a click on the fixture',
      'the tool profile forbids comes back as a result',
      'the MCP server definition provider offers a server that runs',
      'the welcome in the sidebar of an empty chat',
      "History's quick pick lists the conversation",
      'a picture opens full size in an editor tab',
      'a picture of the chat opens full size in an editor tab',
      "the live view shows frames of GAI's own desktop",
      'Record Steps keeps a click the person made on the fixture',
    ]) {
      assert.ok(titles.some((title) => title.includes(expected)), `no passing in-host test about "${expected}": ${titles.join(' | ')}`);
    }
    const { activationMs, activationWallMs, sendToFirstTokenMs, sendToFirstTokenWarmMs, sendToFirstTokenWarmMaxMs, stopMs } = report.metrics;
    assert.equal(typeof activationMs, 'number');
    console.log(`      activation: ${activationMs?.toFixed(1)} ms in activate(), ${activationWallMs} ms for extension.activate() (load included)`);
    console.log(
      `      Send → first token: first request ${sendToFirstTokenMs?.toFixed(1)} ms (builds the agent), warm median ${sendToFirstTokenWarmMs?.toFixed(1)} ms ` +
        `(max ${sendToFirstTokenWarmMaxMs?.toFixed(1)}), scripted model answering at once; Stop → idle ${stopMs} ms`,
    );
    assert.ok(serverLogs.some((file) => /activated in/.test(file.contents) && /GAI/.test(file.path)), 'the GAI log channel was written');
    // The audit trail is in the output channel itself, not only in the API's copy.
    const gaiLog = serverLogs.filter((file) => /GAI/.test(file.path)).map((file) => file.contents).join('\n');
    assert.match(gaiLog, /\[audit\] \S+Z click \{"text":"OK","near":"Left panel"[^}]*\} approved-by=chat result=ok \d+ms: Clicked "OK"/);
    assert.match(gaiLog, /\[audit\] \S+Z click \{"text":"OK","near":"Right panel"[^}]*\} denied-by=chat result=DENIED \d+ms/);
    // Navigate To: the step the model learned, approved on its card (the learning agent's calls are audited too).
    assert.match(gaiLog, /\[audit\] \S+Z click \{"text":"OK","near":"Right panel"[^}]*\} approved-by=chat result=ok \d+ms: Clicked "OK"/);
    const logText = [...result.logs, ...result.logFiles.map((file) => file.contents), ...serverLogs.map((file) => file.contents)].join('\n');
    for (const key of SPEC_KEYS) assert.ok(!logText.includes(key), 'the API key reached a log');
    // The launcher is an ES module with top-level await: imported at run time, not statically.
    const { livingInGroup } = (await import('../../scripts/vscodeHost/run.mjs')) as typeof import('../../scripts/vscodeHost/run.mjs');
    if (launcher.kind === 'code-server') assert.deepEqual(livingInGroup(result.serverPid), [], 'processes of the VS Code server outlived the run');
  });
});
