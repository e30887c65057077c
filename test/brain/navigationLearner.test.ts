// The learner acts only as the host allows: approving navigate_to once grants no launch the
// deny list forbids, and no click the person was not asked about.
import { strict as assert } from 'node:assert';
import { Agent } from '../../src/agent/agent';
import { AgentNavigationLearner, NAVIGATION_PROMPT } from '../../src/navigation/learning/navigationLearner';
import { resolveLlmConfig } from '../../src/model/llmConfig';
import { LlmManager } from '../../src/model/llmManager';
import { createModeProviders } from '../../src/model/providers/providerFactory';
import { NullLogger } from '../../src/common/logger';
import { ToolPolicy } from '../../src/runtime/toolPolicy';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime, type ApprovalRequest, type ToolRuntimeOptions } from '../../src/runtime/toolRuntime';
import { ProbeTool } from '../support/probeTools';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { toolReply } from '../support/scriptedSteps';

describe('navigation learner under the host rules (real SDK over HTTP)', function () {
  this.timeout(20_000);
  let server: ScriptedMessagesServer;
  beforeEach(async () => {
    server = await ScriptedMessagesServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  function learnerUnder(options: ToolRuntimeOptions, tools: ProbeTool[]): AgentNavigationLearner {
    const host = new ToolRuntime(new ToolRegistry(), options);
    return new AgentNavigationLearner({
      createAgent: (offer) => {
        const llm = new LlmManager(createModeProviders(resolveLlmConfig({ provider: 'anthropic', baseUrl: server.baseUrl, apiKey: 'test' }, {})), { system: NAVIGATION_PROMPT });
        const registry = new ToolRegistry();
        for (const tool of offer(tools)) registry.register(tool);
        return new Agent(llm, host.derive(registry), { maxIterations: 15, logger: new NullLogger() });
      },
      latestAnalysis: () => undefined,
      settle: async () => {},
    });
  }

  it('a launch the deny list forbids is denied inside learning too, and a click asks the person', async () => {
    const launch = new ProbeTool('launch_app', { risk: 'system' });
    const click = new ProbeTool('click', { risk: 'action' });
    const asked: ApprovalRequest[] = [];
    const learner = learnerUnder(
      {
        policy: new ToolPolicy({ profile: 'full', deny: ['launch_*'] }),
        requestApproval: async (request) => {
          asked.push(request);
          return 'deny';
        },
      },
      [launch, click],
    );
    server.push(
      toolReply([{ name: 'launch_app', input: { tag: 'xterm' } }]),
      toolReply([{ name: 'click', input: { tag: 'Settings' } }]),
      toolReply([{ name: 'finish_navigation', input: { success: false, summary: 'could not' } }]),
    );
    const outcome = await learner.learn({ target: 'Settings', signal: new AbortController().signal });
    assert.equal(launch.inputs.length, 0, 'the launch never ran');
    assert.equal(click.inputs.length, 0, 'the denied click never ran');
    assert.deepEqual(asked.map((r) => r.call.name), ['click'], 'the click was asked about; the launch was refused by the deny list');
    assert.deepEqual(outcome.actions, []);
    const results = JSON.stringify(server.requests.map((r) => r.body));
    assert.match(results, /launch_app is on the deny list/);
    assert.match(results, /did NOT run/);
  });

  it('with the person approving, the steps run and become the path', async () => {
    const click = new ProbeTool('click', { risk: 'action' });
    const learner = learnerUnder({ requestApproval: async () => 'approve' }, [click]);
    server.push(
      toolReply([{ name: 'click', input: { tag: 'Settings' } }]),
      toolReply([{ name: 'finish_navigation', input: { success: true, summary: 'there' } }]),
    );
    const outcome = await learner.learn({ target: 'Settings', signal: new AbortController().signal });
    assert.equal(outcome.success, true);
    assert.equal(click.inputs.length, 1);
  });
});
