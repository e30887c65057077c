// The chat header's grants for this conversation: the tools ("Allow for this conversation") and
// the apps ("Allow in <app> for this conversation") of the agent's runtime, sent to the webview
// and taken back from it. Split from GaiController so it stays one job.
import type { HostMessage } from '../../shared/protocol';
import type { ToolRuntime } from '../../runtime/toolRuntime';

type Grants = Pick<ToolRuntime, 'conversationGrants' | 'conversationApps' | 'revokeGrant' | 'revokeApp'>;

export class ChatGrants {
  constructor(
    /** The agent's runtime when it is built (undefined before first use: nothing granted yet). */
    private readonly runtime: () => Promise<Grants | undefined>,
    private readonly post: (message: HostMessage) => void,
    private readonly log: (line: string) => void,
  ) {}

  /** Tells the chat what is allowed for this conversation (its header lists it). */
  show(): void {
    void this.runtime()
      .then((runtime) => {
        const apps = (runtime?.conversationApps() ?? []).map(({ key, name }) => ({ key, name }));
        this.post({ type: 'grants', tools: runtime?.conversationGrants() ?? [], apps });
      })
      .catch(() => this.post({ type: 'grants', tools: [], apps: [] }));
  }

  /** The person took back "Allow in <app> for this conversation": actions there ask again. */
  async revokeApp(key: string): Promise<void> {
    if ((await this.runtime().catch(() => undefined))?.revokeApp(key)) this.log(`approvals: actions in ${key} ask again`);
    this.show();
  }

  /** The person took back "Allow for this conversation" for a tool: it asks again. */
  async revokeTool(name: string): Promise<void> {
    if ((await this.runtime().catch(() => undefined))?.revokeGrant(name)) this.log(`approvals: ${name} asks again`);
    this.show();
  }
}
