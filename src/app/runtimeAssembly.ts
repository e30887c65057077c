// Every ToolRuntime of every front is made here: the tools, the rules and the guards. A guard
// added here holds in the CLI, the extension, `gai mcp` and navigation alike.
import type { ModelAccess } from '../model/modelAccess';
import type { BrainProvider } from '../navigation/navigationBrain';
import { GetCurrentNodeTool } from '../navigation/tools/getCurrentNodeTool';
import { NavigateToTool } from '../navigation/tools/navigateToTool';
import { RunRoutineTool } from '../navigation/tools/runRoutineTool';
import { isMcpClientTool } from '../mcp/client/clientTool';
import { ToolPolicy, type ToolProfile } from '../runtime/toolPolicy';
import { ToolRuntime, type ActionGuard, type ApprovalHandler, type ToolRuntimeOptions } from '../runtime/toolRuntime';
import { AppPermissionGuard, type AppPermissionPrompt } from '../safety/appPermissions';
import type { AnyTool } from '../tools/toolBase';
import { createDesktopTools } from '../tools/desktop/desktopTools';
import { EchoTool } from '../tools/echoTool';
import { ToolRegistry } from '../tools/toolRegistry';
import type { RiskLevel } from '../tools/toolTypes';
import type { DesktopAssembly } from './desktopAssembly';
import type { ModelSource, StackFront, StackSettings } from './stackTypes';

/**
 * - `agent`: a model's or a script's actions, approved by the person as the request says;
 * - `client`: an MCP client's actions, which that client's person approves (GAI asks no approval;
 *   an app nobody decided is asked about through the client when it can, else refused, never granted once);
 * - `person`: the person's own command (Read Screen, `gai click`): the command is the approval,
 *   every tool runs, and no guard stands between the person and their desktop.
 */
export type RuntimeKind = 'agent' | 'client' | 'person';

export interface RuntimeRequest {
  kind: RuntimeKind;
  /** Instead of the settings' profile (the CLI's --profile). */
  profile?: ToolProfile;
  /** How this runtime asks the person to approve a call; none: a call that must be approved is denied. */
  approval?: ApprovalHandler;
  /** The person approved every action up front (--yes): no prompt, and an app nobody decided is allowed once. */
  approvedUpFront?: boolean;
  /** The models the tools may use (the detailed screen reader); none: OCR only. */
  models?: ModelAccess;
  /** Why there is no model, said by the tools that need one. */
  noModelReason?: string;
  /**
   * navigate_to and get_current_node: over a brain of this runtime's own (default; its steps obey
   * this runtime), over another runtime's brain, or none (a runtime a brain is built on).
   */
  navigation?: 'own' | 'none' | { brain: BrainProvider };
  /** The model an own brain learns with; none: known paths replay only. */
  learning?: ModelSource;
  /** How this runtime's app guard asks the person (`gai mcp`: through the MCP client); default: the front's way. */
  askApp?: AppPermissionPrompt;
}

export interface StackRuntime {
  runtime: ToolRuntime;
  kind: RuntimeKind;
  /** The brain its navigate_to uses (absent with `navigation: 'none'`). */
  brain?: BrainProvider;
}

/** How a runtime's app guard decides an app nobody decided yet: a prompt, a grant once (--yes), or refused. */
type AppAsking = AppPermissionPrompt | 'grant-once' | 'refuse';

const EVERY_RISK: RiskLevel[] = ['read', 'action', 'system'];

export class RuntimeAssembly {
  /** One guard per way of asking: its conversation grants are shared by the runtimes that ask alike. */
  private readonly appGuards = new Map<AppAsking, AppPermissionGuard>();
  private readonly kinds = new WeakMap<ToolRuntime, RuntimeKind>();

  constructor(
    private readonly settings: StackSettings,
    private readonly front: StackFront,
    private readonly desktop: DesktopAssembly,
    /** A lazily opened brain whose steps obey `host`. */
    private readonly brainFor: (host: ToolRuntime, learning?: ModelSource) => BrainProvider,
  ) {}

  /** The desktop tools, made only here; `computer` adds the native computer-use tool. */
  desktopTools(models?: ModelAccess, options: { computer?: boolean; noModelReason?: string } = {}): AnyTool[] {
    const { input } = this.settings.desktop;
    return createDesktopTools(this.desktop.desktopServices, {
      ...(models ? { models } : {}),
      ...(input ? { input } : {}),
      ...(options.computer ? { computerDisplay: this.desktop.computerDisplay } : {}),
      ...(options.noModelReason ? { noModelReason: options.noModelReason } : {}),
    });
  }

  build(request: RuntimeRequest): StackRuntime {
    const registry = new ToolRegistry(this.front.logger);
    registry.register(new EchoTool());
    for (const tool of this.desktopTools(request.models, { computer: true, ...(request.noModelReason ? { noModelReason: request.noModelReason } : {}) })) registry.register(tool);
    const runtime = new ToolRuntime(registry, { ...this.rules(request), guards: this.guards(request) });
    this.kinds.set(runtime, request.kind);
    const navigation = request.navigation ?? 'own';
    const brain = navigation === 'none' ? undefined : navigation === 'own' ? this.brainFor(runtime, request.learning) : navigation.brain;
    if (brain) {
      registry.register(new NavigateToTool(brain));
      registry.register(new GetCurrentNodeTool(brain));
      registry.register(new RunRoutineTool(brain));
    }
    return { runtime, kind: request.kind, ...(brain ? { brain } : {}) };
  }

  /** The kind a runtime was built as; undefined for a runtime not built here. */
  kindOf(runtime: ToolRuntime): RuntimeKind | undefined {
    return this.kinds.get(runtime);
  }

  /** A new conversation: "this conversation" app grants end ("always"/"never" stay). */
  resetAppGrants(): void {
    for (const guard of this.appGuards.values()) guard.reset();
  }

  private rules(request: RuntimeRequest): ToolRuntimeOptions {
    const { tools } = this.settings;
    const shared = { logger: this.front.logger, defaultTimeoutMs: tools.defaultTimeoutMs, timeouts: tools.timeouts };
    if (request.kind === 'person') {
      return { ...shared, policy: new ToolPolicy({ profile: 'full', allow: tools.allow, deny: tools.deny }), autoApprove: EVERY_RISK };
    }
    const everything = request.kind === 'client' || request.approvedUpFront === true;
    const approval = request.kind === 'client' ? undefined : request.approval;
    return {
      ...shared,
      policy: new ToolPolicy({ profile: request.profile ?? tools.profile, allow: tools.allow, deny: tools.deny }),
      autoApprove: everything ? EVERY_RISK : tools.autoApprove,
      alwaysAllow: tools.alwaysAllow,
      // Clicking Approve or typing an answer is not taking over.
      ...(approval ? { requestApproval: this.desktop.safety.asking(approval) } : {}),
    };
  }

  /**
   * First the safety monitor: a stop ends, and a takeover pauses, every action. Then the app
   * guard: a model's or a script's action acts only in an application the person allowed.
   */
  private guards(request: RuntimeRequest): ActionGuard[] {
    if (request.kind === 'person') return [];
    return [this.desktop.safety, this.appGuard(this.appAsking(request))];
  }

  /** The request's own prompt; else the front's for an agent the person did not approve up front; an MCP client's person is asked only through the client. */
  private appAsking(request: RuntimeRequest): AppAsking {
    if (request.askApp) return request.askApp;
    if (request.kind === 'agent' && request.approvedUpFront) return 'grant-once';
    return (request.kind === 'agent' ? this.front.askAppPermission : undefined) ?? 'refuse';
  }

  private appGuard(asking: AppAsking): AppPermissionGuard {
    let guard = this.appGuards.get(asking);
    if (guard) return guard;
    const { apps } = this.settings;
    const prompt = typeof asking === 'function' ? asking : undefined;
    guard = new AppPermissionGuard({
      windows: this.desktop.desktopServices.desktop.windows,
      store: this.front.appPermissionStore,
      ...(prompt ? { prompt: this.desktop.safety.asking(prompt) } : {}),
      grantOnceWithoutPrompt: asking === 'grant-once',
      allow: apps.allow,
      deny: apps.deny,
      settingNames: apps.settingNames,
      // An MCP server's tools act in no window.
      exemptTool: isMcpClientTool,
      inputScope: this.desktop.inputScope,
      logger: this.front.logger,
    });
    this.appGuards.set(asking, guard);
    return guard;
  }
}
