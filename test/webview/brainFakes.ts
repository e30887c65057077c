// The fake brain and fake VS Code side the brain panel's controller tests use: the brain is a
// document in memory changed by the real records (so a routine edit fails or lands as in the
// store), the host records what it was asked and answers from its queues.
import type { BrainDocument } from '../../src/navigation/store/brainTypes';
import { editRoutine, forgetRoutine, type RoutineEdit } from '../../src/navigation/store/routineRecords';
import type { BrainHostMessage } from '../../src/shared/brainProtocol';
import type { BrainPanelHost, BrainSource } from '../../src/vscode/brain/brainController';
import type { TextRequest } from '../../src/vscode/brain/routineActions';
import { settingsBrain } from './brainViewFixtures';

export const EDIT_TIME = Date.parse('2025-03-02T09:00:00.000Z');

export class FakeSource implements BrainSource {
  doc: BrainDocument = settingsBrain();
  reads = 0;
  calls: string[] = [];
  failWith?: Error;
  listener?: () => void;
  unsubscribed = false;

  async document(): Promise<BrainDocument> {
    this.reads++;
    if (this.failWith) throw this.failWith;
    return structuredClone(this.doc);
  }
  currentNodeKey(): string | undefined {
    return 'settings::network';
  }
  async forgetNode(key: string): Promise<string[]> {
    this.calls.push(`forgetNode ${key}`);
    const removed = this.doc.paths.filter((p) => p.from === key || p.to === key).map((p) => p.id);
    this.doc.nodes = this.doc.nodes.filter((n) => n.key !== key);
    this.doc.paths = this.doc.paths.filter((p) => !removed.includes(p.id));
    return removed;
  }
  async forgetPath(id: string): Promise<void> {
    this.calls.push(`forgetPath ${id}`);
    this.doc.paths = this.doc.paths.filter((p) => p.id !== id);
  }
  async renameNode(key: string, label: string): Promise<void> {
    this.calls.push(`renameNode ${key} ${label}`);
    const node = this.doc.nodes.find((n) => n.key === key);
    if (!node) throw new Error(`no node ${key}`);
    node.label = label;
  }
  /** As BrainStore.update: the edit on a draft, kept only when it did not throw. */
  async editRoutine(id: string, edit: RoutineEdit): Promise<void> {
    this.calls.push(`editRoutine ${id} ${JSON.stringify(edit)}`);
    const draft = structuredClone(this.doc);
    editRoutine(draft, id, edit, EDIT_TIME);
    this.doc = draft;
  }
  async forgetRoutine(id: string): Promise<void> {
    this.calls.push(`forgetRoutine ${id}`);
    forgetRoutine(this.doc, id, EDIT_TIME);
  }
  onDidChange(listener: () => void) {
    this.listener = listener;
    return { dispose: () => (this.unsubscribed = true) };
  }
}

export class FakeHost implements BrainPanelHost {
  posted: BrainHostMessage[] = [];
  questions: Array<{ message: string; detail: string; action: string }> = [];
  asked: Array<{ current: string; screen: string }> = [];
  errors: string[] = [];
  infos: string[] = [];
  answer = true;
  label: string | undefined = 'Renamed';
  shown = true;
  /** The input boxes' answers, in order (undefined: cancelled); an empty queue cancels. */
  texts: Array<string | undefined> = [];
  textRequests: TextRequest[] = [];
  saves: Array<{ name: string; text: string }> = [];
  /** Where saveFile says it wrote; undefined: the dialog was cancelled. */
  savedTo: string | undefined = '/home/me/replace-words.gai-routine.json';
  runs: string[] = [];

  post(message: BrainHostMessage): void {
    this.posted.push(message);
  }
  visible(): boolean {
    return this.shown;
  }
  async confirm(message: string, detail: string, action: string): Promise<boolean> {
    this.questions.push({ message, detail, action });
    return this.answer;
  }
  async askLabel(current: string, screen: string): Promise<string | undefined> {
    this.asked.push({ current, screen });
    return this.label;
  }
  async askText(request: TextRequest): Promise<string | undefined> {
    this.textRequests.push(request);
    return this.texts.shift();
  }
  async saveFile(name: string, text: string): Promise<string | undefined> {
    this.saves.push({ name, text });
    return this.savedTo;
  }
  async runRoutine(id: string): Promise<void> {
    this.runs.push(id);
  }
  showError(message: string): void {
    this.errors.push(message);
  }
  showInfo(message: string): void {
    this.infos.push(message);
  }
  graphs() {
    return this.posted.flatMap((m) => (m.type === 'graph' ? [m.graph] : []));
  }
  routineLists() {
    return this.posted.flatMap((m) => (m.type === 'routines' ? [m] : []));
  }
}
