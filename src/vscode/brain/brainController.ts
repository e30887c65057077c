// What the "GAI Brain" panel does with the view's messages, apart from VS Code itself (no vscode
// import, so it is unit-tested with a fake host): validate, confirm a forget, ask for a new
// label, apply the change through the BrainSource, and send the view the graph and the routines
// again (or one screen's thumbnail, or routine steps' crops, which they leave out). The routine
// messages are routineActions.ts's.
import { errorMessage } from '../../common/errors';
import type { Logger } from '../../common/logger';
import { LAUNCHER_KEY, type BrainDocument } from '../../navigation/store/brainTypes';
import type { RoutineEdit } from '../../navigation/store/routineRecords';
import { MAX_NODE_LABEL, ROUTINE_VIEW_MESSAGE_SCHEMAS, type BrainHostMessage, type BrainViewMessage, type RoutineViewMessage } from '../../shared/brainProtocol';
import { buildBrainGraph, LAUNCHER_LABEL, thumbnailSrc } from './brainGraphModel';
import { parseBrainViewMessage } from './brainMessages';
import { RoutineActions, type RoutineHost } from './routineActions';
import { buildRoutineViews, routineCropSrcs } from './routineViewModel';

export interface DisposableLike {
  dispose(): void;
}

/**
 * Where the panel reads and changes the brain; backed by the real BrainStore in the extension.
 * The mutators may resolve with anything (BrainStore's return what they removed or renamed).
 */
export interface BrainSource {
  document(): Promise<BrainDocument>;
  /** The screen GAI identified last, highlighted in the picture. */
  currentNodeKey?(): string | undefined;
  forgetNode(key: string): Promise<unknown>;
  forgetPath(id: string): Promise<unknown>;
  renameNode(key: string, label: string): Promise<unknown>;
  /** One routineRecords.editRoutine under the store's lock: all of it is written, or nothing. */
  editRoutine(id: string, edit: RoutineEdit): Promise<unknown>;
  forgetRoutine(id: string): Promise<unknown>;
  /** Fires when the brain changed elsewhere (a navigation learned a path, another window wrote). */
  onDidChange?(listener: () => void): DisposableLike;
}

/** The VS Code side of the panel, as the controller needs it. */
export interface BrainPanelHost extends RoutineHost {
  post(message: BrainHostMessage): void;
  /** Whether the view is shown (a hidden view reloads and says `ready` when shown again). */
  visible(): boolean;
  /** A modal question; true only when the person chose `action`. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  /** Asks for a node's new label (validated there); undefined when cancelled. */
  askLabel(current: string, screen: string): Promise<string | undefined>;
  showError(message: string): void;
}

export class BrainController implements DisposableLike {
  /** Counted for tests and the log. */
  rejectedMessages = 0;
  readyCount = 0;
  private refreshing?: Promise<void>;
  private again = false;
  private disposed = false;
  private subscription?: DisposableLike;
  private readonly routines: RoutineActions;

  constructor(
    private source: BrainSource,
    private readonly host: BrainPanelHost,
    private readonly logger: Logger,
  ) {
    this.routines = new RoutineActions(() => this.source, host, logger, () => this.refresh());
    this.subscribe();
  }

  /** Another source (show() called again with a different one): read that from now on. */
  setSource(source: BrainSource): void {
    if (source === this.source) return;
    this.subscription?.dispose();
    this.source = source;
    this.subscribe();
  }

  /** Handles one message from the view; never rejects. */
  async receive(raw: unknown): Promise<void> {
    const parsed = parseBrainViewMessage(raw);
    if (!parsed.ok) {
      this.rejectedMessages++;
      this.logger.error(`brain view: rejected a malformed message: ${parsed.error}`);
      return;
    }
    const message = parsed.message;
    try {
      await this.handle(message);
    } catch (error) {
      const text = `brain view: "${message.type}" failed: ${errorMessage(error)}`;
      this.logger.error(text);
      this.host.showError(`GAI Brain: ${errorMessage(error)}`);
      await this.refresh();
    }
  }

  /**
   * Reads the brain and sends the view the graph. Calls while one runs coalesce into one more
   * run after it, so the view always ends with the newest document.
   */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    const run = async () => {
      do {
        this.again = false;
        await this.renderOnce();
      } while (this.again && !this.disposed);
    };
    this.refreshing = run().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  dispose(): void {
    this.disposed = true;
    this.subscription?.dispose();
    this.subscription = undefined;
  }

  private subscribe(): void {
    this.subscription = this.source.onDidChange?.(() => {
      // A hidden view is reloaded when shown again and asks then.
      if (this.host.visible()) void this.refresh();
    });
  }

  private async handle(message: BrainViewMessage): Promise<void> {
    if (isRoutineMessage(message)) return this.routines.handle(message);
    switch (message.type) {
      case 'ready':
        this.readyCount++;
        await this.refresh();
        return;
      case 'refresh':
        await this.refresh();
        return;
      case 'forgetNode':
        await this.forgetNode(message.key);
        return;
      case 'forgetPath':
        await this.forgetPath(message.id);
        return;
      case 'renameNode':
        await this.renameNode(message.key, message.label);
        return;
      case 'thumbnail':
        await this.sendThumbnail(message.key);
        return;
      case 'routineCrops':
        await this.sendCrops(message.crops);
        return;
    }
  }

  /** Answers every token, with null for one that names no picture now (the view stops waiting). */
  private async sendCrops(tokens: string[]): Promise<void> {
    let crops = tokens.map((crop) => ({ crop, src: null as string | null }));
    try {
      crops = routineCropSrcs(await this.source.document(), tokens);
    } catch (error) {
      this.logger.warn(`brain view: reading routine pictures failed: ${errorMessage(error)}`);
    }
    if (!this.disposed) this.host.post({ type: 'routineCrops', crops });
  }

  /** Answers every request, with null when there is no picture (or it cannot be read): the view stops waiting. */
  private async sendThumbnail(key: string): Promise<void> {
    let src: string | null = null;
    try {
      src = thumbnailSrc((await this.source.document()).nodes.find((n) => n.key === key)?.thumbnail);
    } catch (error) {
      this.logger.warn(`brain view: reading the thumbnail of ${JSON.stringify(key)} failed: ${errorMessage(error)}`);
    }
    if (!this.disposed) this.host.post({ type: 'thumbnail', key, src });
  }

  private async forgetNode(key: string): Promise<void> {
    const document = await this.source.document();
    const node = document.nodes.find((n) => n.key === key);
    if (!node) {
      this.logger.warn(`brain view: no screen ${JSON.stringify(key)} to forget${key === LAUNCHER_KEY ? ' (the launcher is not a stored screen)' : ''}`);
      await this.refresh();
      return;
    }
    const paths = document.paths.filter((p) => p.from === key || p.to === key).length;
    const confirmed = await this.host.confirm(
      `Forget the screen "${screenName(node)}"?`,
      `GAI forgets this screen${paths > 0 ? ` and the ${paths} learned path${paths === 1 ? '' : 's'} from or to it` : ''}. This cannot be undone.`,
      'Forget',
    );
    if (!confirmed) return;
    await this.source.forgetNode(key);
    this.logger.info(`brain: forgot screen ${key} and ${paths} path(s)`);
    await this.refresh();
  }

  private async forgetPath(id: string): Promise<void> {
    const document = await this.source.document();
    const path = document.paths.find((p) => p.id === id);
    if (!path) {
      this.logger.warn(`brain view: no path ${JSON.stringify(id)} to forget`);
      await this.refresh();
      return;
    }
    const name = (key: string) => {
      if (key === LAUNCHER_KEY) return LAUNCHER_LABEL;
      const node = document.nodes.find((n) => n.key === key);
      return node ? screenName(node) : key;
    };
    const runs = path.metadata.usageCount;
    const confirmed = await this.host.confirm(
      `Forget the path from "${name(path.from)}" to "${name(path.to)}"?`,
      `Its ${path.actions.length} step${path.actions.length === 1 ? '' : 's'}${runs > 0 ? ` and the record of ${runs} run${runs === 1 ? '' : 's'}` : ''} are forgotten; the next navigation there learns it again. This cannot be undone.`,
      'Forget',
    );
    if (!confirmed) return;
    await this.source.forgetPath(id);
    this.logger.info(`brain: forgot path ${id}`);
    await this.refresh();
  }

  private async renameNode(key: string, given: string | undefined): Promise<void> {
    let label = given?.trim();
    if (label === undefined) {
      const document = await this.source.document();
      const node = document.nodes.find((n) => n.key === key);
      if (!node) {
        this.logger.warn(`brain view: no screen ${JSON.stringify(key)} to rename`);
        await this.refresh();
        return;
      }
      label = (await this.host.askLabel(node.label, screenName(node)))?.trim();
      if (label === undefined) return;
    }
    const problem = labelProblem(label);
    if (problem) throw new Error(problem);
    await this.source.renameNode(key, label);
    this.logger.info(`brain: renamed screen ${key} to ${JSON.stringify(label)}`);
    await this.refresh();
  }

  private async renderOnce(): Promise<void> {
    try {
      const document = await this.source.document();
      const graph = buildBrainGraph(document, { currentNodeKey: this.source.currentNodeKey?.() });
      const routines = buildRoutineViews(document);
      if (!this.disposed) {
        this.host.post({ type: 'graph', graph });
        this.host.post({ type: 'routines', ...routines });
      }
    } catch (error) {
      this.logger.error(`brain view: reading the brain failed: ${errorMessage(error)}`);
      if (!this.disposed) this.host.post({ type: 'error', text: `Could not read the brain: ${errorMessage(error)}` });
    }
  }
}

function isRoutineMessage(message: BrainViewMessage): message is RoutineViewMessage {
  return Object.hasOwn(ROUTINE_VIEW_MESSAGE_SCHEMAS, message.type);
}

/** Why a label cannot be used, or undefined when it can; for the input box and the check above. */
export function labelProblem(label: string): string | undefined {
  const trimmed = label.trim();
  if (trimmed === '') return 'Enter a name for this screen.';
  if (trimmed.length > MAX_NODE_LABEL) return `At most ${MAX_NODE_LABEL} characters (this is ${trimmed.length}).`;
  return undefined;
}

function screenName(node: { label: string; windowTitle: string; programName: string }): string {
  const name = node.label.trim() || node.windowTitle.trim() || node.programName;
  return name.length > 80 ? `${name.slice(0, 79)}…` : name;
}
