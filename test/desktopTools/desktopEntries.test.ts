import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applicationDirs,
  execToArgv,
  findDesktopEntry,
  parseDesktopEntry,
  readDesktopEntries,
  type DesktopEntry,
} from '../../src/platform/linux/desktopEntries';

function entryText(fields: Record<string, string>, extra = ''): string {
  return ['[Desktop Entry]', ...Object.entries(fields).map(([k, v]) => `${k}=${v}`), extra].join('\n');
}

const app = { Type: 'Application', Name: 'Calculator', Exec: 'gnome-calculator' };

describe('desktop entries', () => {
  describe('parseDesktopEntry', () => {
    it('reads name, generic name, keywords and exec', () => {
      const entry = parseDesktopEntry(
        'org.gnome.Calculator.desktop',
        entryText({ ...app, GenericName: 'Calculator', Keywords: 'calculation;arithmetic; math ;' }),
      );
      assert.deepEqual(entry, {
        file: 'org.gnome.Calculator.desktop',
        name: 'Calculator',
        genericName: 'Calculator',
        keywords: ['calculation', 'arithmetic', 'math'],
        exec: 'gnome-calculator',
      });
    });

    it('accepts only Type=Application', () => {
      assert.equal(parseDesktopEntry('a.desktop', entryText({ ...app, Type: 'Link' })), undefined);
      assert.equal(parseDesktopEntry('a.desktop', entryText({ Name: 'x', Exec: 'x' })), undefined);
    });

    it('skips NoDisplay=true and Hidden=true', () => {
      assert.equal(parseDesktopEntry('a.desktop', entryText({ ...app, NoDisplay: 'true' })), undefined);
      assert.equal(parseDesktopEntry('a.desktop', entryText({ ...app, Hidden: 'true' })), undefined);
      assert.ok(parseDesktopEntry('a.desktop', entryText({ ...app, NoDisplay: 'false' })));
    });

    it('reads only the [Desktop Entry] group (actions do not override it)', () => {
      const text = [
        'Name=Before any group',
        entryText(app),
        '[Desktop Action new-window]',
        'Name=New Window',
        'Exec=gnome-calculator --new-window',
      ].join('\n');
      const entry = parseDesktopEntry('a.desktop', text);
      assert.equal(entry?.name, 'Calculator');
      assert.equal(entry?.exec, 'gnome-calculator');
    });

    it('ignores comments and needs Name and Exec', () => {
      const entry = parseDesktopEntry('a.desktop', entryText(app, '# Name=Commented'));
      assert.equal(entry?.name, 'Calculator');
      assert.equal(parseDesktopEntry('a.desktop', entryText({ Type: 'Application', Name: 'No exec' })), undefined);
    });
  });

  describe('execToArgv', () => {
    const cases: Array<[string, string[]]> = [
      ['gedit %U', ['gedit']],
      ['vlc --started-from-file %f', ['vlc', '--started-from-file']],
      ['"/opt/My App/bin/app" --flag %F', ['/opt/My App/bin/app', '--flag']],
      ['sh -c "echo \\"hi\\" \\$HOME"', ['sh', '-c', 'echo "hi" $HOME']],
      ['printf 100%%', ['printf', '100%']],
      ['app  --a   --b', ['app', '--a', '--b']],
      ['app ""', ['app', '']],
      // Never a shell: its syntax stays plain text inside arguments.
      ['app "a;b" $(touch x) `id` | rm -rf ~ && reboot', ['app', 'a;b', '$(touch', 'x)', '`id`', '|', 'rm', '-rf', '~', '&&', 'reboot']],
      ['app --name=%c --icon %i %k', ['app', '--name=', '--icon']],
      ['app 100%%f', ['app', '100%f']],
      // The value's own escapes first (\\s is a space, \\\\ a backslash), then the quoting's.
      ['"a\\\\\\\\b" c\\sd', ['a\\b', 'c', 'd']],
    ];
    for (const [exec, argv] of cases) {
      it(`${exec} → ${JSON.stringify(argv)}`, () => {
        assert.deepEqual(execToArgv(exec), argv);
      });
    }
  });

  describe('findDesktopEntry', () => {
    const entry = (file: string, name: string, more: Partial<DesktopEntry> = {}): DesktopEntry => ({ file, name, keywords: [], exec: file, ...more });
    const exactName = entry('a.desktop', 'Calculator');
    const byFile = entry('calculator.desktop', 'Galculator');
    const byGeneric = entry('kcalc.desktop', 'KCalc', { genericName: 'Calculator' });
    const prefix = entry('b.desktop', 'Calculator Plus');
    const keyword = entry('c.desktop', 'Numbers', { keywords: ['Calculator'] });
    const contains = entry('d.desktop', 'Scientific Calculator');
    const all = [contains, keyword, prefix, byGeneric, byFile, exactName];

    it('ranks exact name > generic or file name > prefix > keyword > contains', () => {
      const order: string[] = [];
      let left = [...all];
      for (;;) {
        const best = findDesktopEntry(left, 'calculator');
        if (!best) break;
        order.push(best.name);
        left = left.filter((e) => e !== best);
      }
      // KCalc and Galculator share rank 1; the shorter name goes first.
      assert.deepEqual(order, ['Calculator', 'KCalc', 'Galculator', 'Calculator Plus', 'Numbers', 'Scientific Calculator']);
    });

    it('matches a reverse-DNS file name by its last part, ignoring case and spaces', () => {
      const gnome = entry('org.gnome.TextEditor.desktop', 'Text Editor');
      const other = entry('x.desktop', 'TextEditor Pro');
      assert.equal(findDesktopEntry([other, gnome], '  TEXTEDITOR '), gnome);
    });

    it('finds nothing for an unrelated name', () => {
      assert.equal(findDesktopEntry(all, 'browser'), undefined);
    });
  });

  describe('reading directories', () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'gai-entries-'));
    });
    afterEach(() => {
      rmSync(root, { recursive: true, force: true });
    });

    function dir(name: string, files: Record<string, string>): string {
      const path = join(root, name);
      mkdirSync(path, { recursive: true });
      for (const [file, text] of Object.entries(files)) writeFileSync(join(path, file), text);
      return path;
    }

    it('the first directory wins for the same file name; others add their own files', async () => {
      const user = dir('user', { 'app.desktop': entryText({ ...app, Name: 'First' }), 'notes.txt': 'not an entry' });
      const system = dir('system', {
        'app.desktop': entryText({ ...app, Name: 'Second' }),
        'other.desktop': entryText({ ...app, Name: 'Other' }),
      });
      const entries = await readDesktopEntries([user, join(root, 'missing'), system]);
      assert.deepEqual(entries.map((e) => [e.file, e.name]).sort(), [['app.desktop', 'First'], ['other.desktop', 'Other']]);
    });

    it('a Hidden entry in the first directory hides the same file further down (the spec’s way to remove an app)', async () => {
      const user = dir('user', { 'app.desktop': entryText({ ...app, Hidden: 'true' }) });
      const system = dir('system', { 'app.desktop': entryText(app) });
      assert.deepEqual(await readDesktopEntries([user, system]), []);
    });

    it('applicationDirs puts XDG_DATA_HOME before XDG_DATA_DIRS, each with applications/', () => {
      assert.deepEqual(applicationDirs({ XDG_DATA_HOME: '/home/u/data', XDG_DATA_DIRS: '/a::/b' }), [
        join('/home/u/data', 'applications'),
        join('/a', 'applications'),
        join('/b', 'applications'),
      ]);
      const defaults = applicationDirs({});
      assert.deepEqual(defaults.slice(1), [join('/usr/local/share', 'applications'), join('/usr/share', 'applications')]);
      assert.match(defaults[0] ?? '', /\.local[\\/]share[\\/]applications$/);
    });
  });
});
