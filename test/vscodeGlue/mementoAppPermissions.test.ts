import { strict as assert } from 'node:assert';
import { APP_PERMISSIONS_STATE_KEY, MementoAppPermissionStore, type StateMemento } from '../../src/vscode/mementoAppPermissions';

/** globalState as VS Code keeps it: values survive a JSON round trip. */
class JsonMemento implements StateMemento {
  values = new Map<string, string>();
  get<T>(key: string): T | undefined {
    const text = this.values.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }
  update(key: string, value: unknown): Thenable<void> {
    this.values.set(key, JSON.stringify(value));
    return Promise.resolve();
  }
}

describe('MementoAppPermissionStore (VS Code global state)', () => {
  it('keeps always/never across stores on the same state', async () => {
    const memento = new JsonMemento();
    await new MementoAppPermissionStore(memento).set('gedit', 'always');
    await new MementoAppPermissionStore(memento).set('gaifixture', 'never');
    const store = new MementoAppPermissionStore(memento);
    assert.equal(await store.get('gedit'), 'always');
    assert.deepEqual(await store.all(), { gedit: 'always', gaifixture: 'never' });
    assert.equal(await store.get('firefox'), undefined);
  });

  it('an invalid stored value is a CONFIG error naming the state key, and is not overwritten', async () => {
    const memento = new JsonMemento();
    await memento.update(APP_PERMISSIONS_STATE_KEY, { version: 1, apps: { gedit: 'never' } });
    const store = new MementoAppPermissionStore(memento);
    await assert.rejects(store.get('gedit'), /app permissions VS Code global state \(gai\.appPermissions\): not valid .*Fix or delete it/);
    await assert.rejects(store.set('gedit', 'always'), /not valid/);
    assert.deepEqual(memento.get(APP_PERMISSIONS_STATE_KEY), { version: 1, apps: { gedit: 'never' } });
  });
});
