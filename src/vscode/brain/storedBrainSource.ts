// What Show Brain draws and edits: the stored brain, opened without the desktop or a model
// (another store on the same folder as the navigator's is fine: every change is locked and merged).
import type * as vscode from 'vscode';
import type { Logger } from '../../common/logger';
import { BrainStore } from '../../navigation/store/brainStore';
import { editRoutine, forgetRoutine } from '../../navigation/store/routineRecords';
import type { BrainSource } from './brainController';

export class StoredBrainSource {
  private store?: Promise<BrainStore>;

  constructor(
    private readonly brainDir: string,
    private readonly logger: Logger,
    /** Fired after each change made here, and by the navigator after each navigation. */
    private readonly changed: vscode.EventEmitter<void>,
  ) {}

  /** The source for a Show Brain panel; `currentNodeKey` says where the last navigation ended. */
  source(currentNodeKey: () => string | undefined): BrainSource {
    const store = (): Promise<BrainStore> => {
      this.store ??= BrainStore.open(this.brainDir, { logger: this.logger }).then(({ store: opened }) => opened);
      return this.store;
    };
    const changed = <T>(work: Promise<T>): Promise<T> => work.finally(() => this.changed.fire());
    return {
      document: async () => (await (await store()).reload()).document,
      currentNodeKey,
      forgetNode: async (key) => changed((await store()).forgetNode(key)),
      forgetPath: async (id) => changed((await store()).forgetPath(id)),
      renameNode: async (key, label) => changed((await store()).renameNode(key, label)),
      // Under the lock on the newest document: a throwing edit writes nothing.
      editRoutine: async (id, edit) => changed((await store()).update((draft, context) => structuredClone(editRoutine(draft, id, edit, context.now)))),
      forgetRoutine: async (id) => changed((await store()).update((draft, context) => forgetRoutine(draft, id, context.now).id)),
      onDidChange: (listener) => this.changed.event(listener),
    };
  }
}
