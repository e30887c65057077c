// Click by text on LibreOffice Writer and Calc (7.4, GTK 3 plugin): every label of each window,
// its Format menu and a dialog (Writer: Paragraph, Calc: Format Cells), ground truth from AT-SPI
// through our own reader (atspiTruth.py: only what is drawn, boxes where they are drawn). The
// target locator is asked for each label without clicking; its point must lie in the label's
// box, or it must say it will not click. Then real clicks through the click tool, checked by the
// app's own state, and the Paragraph dialog clicked through by `gai click` cycle after cycle
// with soffice.bin alive after every click (issue 19: GAI's reads crashed it).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { TargetLocator } from '../../src/desktop/grounding/targetLocator';
import { runBuiltCli } from './support/builtCli';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { suiteDisplay } from './support/fixture';
import { delay } from './support/realApps/appWindow';
import { LabelBoard } from './support/realApps/labelBoard';
import { LibreOfficeApp, type OfficeKind } from './support/realApps/libreOfficeApp';

const display = suiteDisplay();
// The Paragraph dialog's tabs and its Cancel, clicked by `gai click` in each cycle.
const PARAGRAPH_CLICKS = ['Indents & Spacing', 'Alignment', 'Text Flow', 'Tabs', 'Borders', 'Area', 'Cancel'];
// Read with a client per click (`--cold`), soffice.bin died in the second cycle in 3 of 3 runs (2026-11-27).
const CYCLES = 3;
const FULL_SCREEN = { x: 0, y: 0, width: 1920, height: 1080 };

describe('LibreOffice Writer and Calc: every label, and reads that do not crash it', function () {
  this.timeout(900_000);
  let rig: DesktopRig;
  let locator: TargetLocator;
  const board = new LabelBoard((text) => locator.locate(text));

  before(function () {
    if (spawnSync('sh', ['-c', 'command -v soffice']).status !== 0) {
      console.log('      skipped: soffice not installed (node scripts/ensureDeps.mjs installs libreoffice-writer, -calc and -gtk3)');
      this.skip();
    }
    rig = createDesktopRig(display.env);
    locator = new TargetLocator(rig.services);
  });
  after(async () => {
    board.printTotals();
    await rig?.dispose();
  });

  async function withOffice(kind: OfficeKind, body: (app: LibreOfficeApp) => Promise<void>): Promise<void> {
    const app = await LibreOfficeApp.start(kind, display.env, FULL_SCREEN);
    try {
      await body(app);
    } finally {
      await app.stop();
    }
  }

  for (const kind of ['writer', 'calc'] as const) {
    it(`${kind}: every drawn label of the window, its Format menu and a dialog`, async () => {
      await withOffice(kind, async (app) => {
        await app.activate();
        await delay(500);
        const main = await app.groundTruth();
        // The words inside its fields (font name and size, the Name Box) are left out: the tree
        // gives the field, not the word, and a number in them has copies the tree does not have
        // (Calc's row headers are drawn, not in the tree).
        await board.tryLabels(kind, main.filter((l) => l.role !== 'word'));
        const menu = await app.openMenu('Format');
        await board.tryLabels(kind, menu, main);
        await app.closePopups();
        const dialog = await app.openDialog();
        await board.tryLabels(kind, dialog, main);
        await app.closePopups();
        assert.ok(app.alive(), `soffice.bin died: ${app.crashReport()}`);
        board.check(kind);
      });
    });
  }

  it('writer: the click tool clicks Bold where it is drawn (LibreOffice reports it 25 px higher), and the text turns bold', async () => {
    await withOffice('writer', async (app) => {
      await app.activate();
      const before = (await app.elements()).find((e) => e.name === 'Bold' && e.role === 'toggle button');
      assert.ok(before, 'Writer shows a Bold button');
      // The heading is bold: a click on Bold takes it off.
      assert.ok(before.states.includes('checked'), `Bold is not on for the heading: ${before.states.join(',')}`);
      const result = await rig.run('click', { text: 'Bold' });
      assert.equal(result.success, true, result.error);
      await app.waitFor(async () => !(await app.elements()).find((e) => e.name === 'Bold' && e.role === 'toggle button')?.states.includes('checked'), 'Bold turning off');
    });
  });

  it('calc: the click tool opens the sheet tab Notes and back Budget (tabs LibreOffice reports 25 px higher)', async () => {
    await withOffice('calc', async (app) => {
      await app.activate();
      const tab = await rig.run('click', { text: 'Notes' });
      assert.equal(tab.success, true, tab.error);
      await app.waitFor(async () => (await app.elements()).some((e) => e.role === 'page tab' && e.name === 'Notes' && e.states.includes('selected')), 'the Notes tab selected');
      const back = await rig.run('click', { text: 'Budget' });
      assert.equal(back.success, true, back.error);
      await app.waitFor(async () => (await app.elements()).some((e) => e.role === 'page tab' && e.name === 'Budget' && e.states.includes('selected')), 'the Budget tab selected');
      assert.ok((await app.elements()).some((e) => e.role === 'table cell' && e.name === 'Rent'), 'the Budget sheet shows its cells');
    });
  });

  // soffice.bin died at the first `gai click` after the Paragraph dialog closed, in 3 of 3 runs
  // with a process per click (atk-bridge answering the new client's GetItems from a cache that
  // holds a freed object); through one long-lived client, 0 of 3 (2026-11-27). So while
  // LibreOffice runs, `gai` commands start the warm daemon and read the tree through it.
  it(`writer: ${CYCLES} cycles of the Paragraph dialog clicked through by gai click (which reads through the warm daemon it starts), soffice.bin alive after every click`, async () => {
    await withOffice('writer', async (app) => {
      await app.activate();
      const clicked: string[] = [];
      const click = async (text: string): Promise<void> => {
        const outcome = await runBuiltCli(['click', text, '--json'], display.env);
        clicked.push(`${text}: ${outcome.code === 0 ? 'ok' : outcome.stdout.slice(0, 200)}`);
        assert.ok(app.alive(), `soffice.bin died after \`gai click ${text}\` (clicks: ${clicked.join('; ')}):\n${app.crashReport()}`);
        assert.equal(outcome.code, 0, `gai click ${text}: ${outcome.stdout}${outcome.stderr}`);
      };
      // Only GAI reads the tree here (the ground truth reader is a client of its own): fixed
      // waits for the menu and the dialog, and each click must succeed.
      try {
        for (let cycle = 1; cycle <= CYCLES; cycle++) {
          await click('Format');
          await delay(600);
          await click('Paragraph...');
          await delay(1500);
          for (const text of PARAGRAPH_CLICKS) await click(text);
          await delay(600);
        }
        const status = await runBuiltCli(['daemon', 'status', '--json'], display.env);
        assert.equal(status.code, 0, `the clicks went through a warm daemon: ${status.stdout}${status.stderr}`);
      } finally {
        await runBuiltCli(['daemon', 'stop'], display.env);
      }
    });
  });
});
