// The Routines section of the GAI Brain view in a real browser: the built media/dist/brainView.js
// in the real HTML shell with its strict CSP (headless chromium, see test/webview/browserHarness.ts),
// fed `graph` and `routines` messages the way the panel posts them. Checks the steps in words
// with their crops (asked for by token, shown from data: URLs, not asked again on a redraw), the
// buttons' requests, names as text only, contrast in VS Code's four default themes, and a narrow panel.
// Saves docs/screenshots/brain-routines.png (Dark Modern) with GAI_UPDATE_SCREENSHOTS=1.
// Run alone: node --import=tsx node_modules/mocha/bin/mocha.js test/vscode/brainRoutines.test.ts --timeout 120000
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Thumbnail } from '../../src/navigation/store/brainTypes';
import type { BrainHostMessage, BrainViewMessage } from '../../src/shared/brainProtocol';
import { buildBrainGraph } from '../../src/vscode/brain/brainGraphModel';
import { brainHtmlFor } from '../../src/vscode/brain/brainHtmlShell';
import { buildRoutineViews, cropToken, routineCropSrcs } from '../../src/vscode/brain/routineViewModel';
import { ChatPage, screenshotPath } from '../webview/browserHarness';
import { contrast, flatten, over, parseColor } from '../webview/contrast';
import { routinesBrain, type RoutineCrops } from '../webview/routineViewFixtures';
import { applyTheme, loadThemes, type VscodeTheme } from '../webview/vscodeThemes';

const HOSTILE = '<img src=x onerror="window.__pwned=1">';

interface BrainWindow {
  __posted: BrainViewMessage[];
  __pwned?: unknown;
}

/** A piece of a Mousepad dialog as the recorder crops it (200×72 around the point). */
async function cropPicture(label: string, kind: 'field' | 'button'): Promise<Thumbnail> {
  const body =
    kind === 'button'
      ? `<rect x="40" y="20" width="120" height="32" rx="4" fill="#e4e4e4" stroke="#8c8c8c"/><text x="100" y="41" font-family="DejaVu Sans" font-size="13" text-anchor="middle" fill="#1e1e1e">${label}</text>`
      : `<text x="6" y="41" font-family="DejaVu Sans" font-size="12" fill="#1e1e1e">${label}</text><rect x="90" y="24" width="108" height="26" rx="3" fill="#ffffff" stroke="#3584e4" stroke-width="2"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="72"><rect width="200" height="72" fill="#f6f5f4"/>${body}</svg>`;
  const data = await sharp(Buffer.from(svg)).png().toBuffer();
  return { mediaType: 'image/png', data: data.toString('base64'), width: 200, height: 72 };
}

describe('brain view routines in a browser (real bundle, real CSP)', function () {
  this.timeout(180_000);
  let view: ChatPage<BrainHostMessage, BrainViewMessage>;
  let crops: RoutineCrops;
  let themes: VscodeTheme[];
  const posted = () => view.posted();
  const postedOf = async <T extends BrainViewMessage['type']>(type: T) => (await posted()).filter((m): m is Extract<BrainViewMessage, { type: T }> => m.type === type);
  const settle = () => view.page.evaluate(() => new Promise((done) => setTimeout(done, 80)));
  const clear = () => view.page.evaluate(() => void ((window as unknown as BrainWindow).__posted.length = 0));
  const step = (id: string) => `.routine-row[data-id="replace-words"] .step-row[data-step="${id}"]`;

  before(async () => {
    crops = {
      search: await cropPicture('Search for:', 'field'),
      replace: await cropPicture('Replace with:', 'field'),
      button: await cropPicture('Replace All', 'button'),
      proposal: await cropPicture('Replace all', 'button'),
    };
    view = await ChatPage.open<BrainHostMessage, BrainViewMessage>({
      html: (origin, nonce) =>
        brainHtmlFor({
          cspSource: origin,
          scriptUri: `${origin}/media/dist/brainView.js`,
          styleUri: `${origin}/media/brain.css`,
          codiconsUri: `${origin}/media/dist/codicons/codicon.css`,
          nonce,
        }),
      viewport: { width: 1180, height: 1100 },
    });
    const { hostPaths } = (await import('../../scripts/vscodeHost/install.mjs')) as typeof import('../../scripts/vscodeHost/install.mjs');
    themes = loadThemes(join(hostPaths().codeServerDir, 'lib', 'vscode'));
    await view.until(() => (window as unknown as BrainWindow).__posted.some((m) => m.type === 'ready'));
  });

  after(async () => {
    await view?.close();
  });

  it('shows no Routines section before the host sends them', async () => {
    await view.post({ type: 'graph', graph: buildBrainGraph(routinesBrain()) });
    await view.until(() => document.querySelectorAll('.node-row').length > 0);
    assert.equal(await view.page.evaluate(() => (document.querySelector('.routine-section') as HTMLElement | null)?.hidden), true);
  });

  it('lists each routine with its parameters and its steps in words, in order', async () => {
    await view.post({ type: 'routines', ...buildRoutineViews(routinesBrain(crops)) });
    await view.until(() => document.querySelectorAll('.routine-row').length === 2);
    const facts = await view.page.evaluate(() => {
      const replace = document.querySelector('.routine-row[data-id="replace-words"]');
      const imported = document.querySelector('.routine-row[data-id="save-as-pdf"]');
      const section = document.querySelector('.routine-section') as (HTMLElement & { description?: string; heading?: string }) | null;
      return {
        section: [section?.hidden, section?.heading, section?.description],
        order: Array.from(document.querySelectorAll('.routine-row')).map((r) => r.getAttribute('data-id')),
        name: replace?.querySelector('.row-name')?.textContent,
        meta: replace?.querySelector('.row-meta')?.textContent,
        params: Array.from(replace?.querySelectorAll('.param-row') ?? []).map((p) => p.querySelector('.param-text')?.textContent),
        steps: Array.from(replace?.querySelectorAll('.step-row') ?? []).map((s) => `${s.querySelector('.step-number')?.textContent}. ${s.querySelector('.step-words')?.textContent}`),
        actions: Array.from(replace?.querySelectorAll('.step-row') ?? []).map((s) => Array.from(s.querySelectorAll('.step-actions vscode-toolbar-button:not(.placeholder)')).map((b) => b.getAttribute('data-action')).join(' ')),
        optional: Array.from(replace?.querySelectorAll('vscode-toolbar-button[data-action="optional"]') ?? []).map((b) => b.shadowRoot?.querySelector('button')?.getAttribute('aria-checked')),
        proposal: replace?.querySelector('.step-row[data-step="s-all"] .proposal-text')?.textContent,
        failure: replace?.querySelector('.path-failure')?.textContent,
        importedTrust: imported?.querySelector('.routine-trust')?.textContent,
        replaceTrust: replace?.querySelectorAll('.routine-trust').length,
        routineButtons: Array.from(replace?.querySelectorAll('.row-head vscode-toolbar-button') ?? []).map((b) => b.getAttribute('data-action')),
      };
    });
    assert.deepEqual(facts.section, [false, 'Routines', '2']);
    assert.deepEqual(facts.order, ['replace-words', 'save-as-pdf']);
    assert.equal(facts.name, 'Replace words');
    assert.equal(facts.meta, '5 steps · 4 runs, 1 failed · last run 2025-03-01');
    assert.deepEqual(facts.params, ['{find} = "cat" — The word to look for', '{replace} = "dog"']);
    assert.deepEqual(facts.steps, [
      '1. press ctrl+h (mousepad)',
      '2. type "{find}" into "Search for"',
      '3. type "{replace} and more" into "Replace with" + enter',
      '4. click "Replace All" (push button, mousepad)',
      '5. click "Close" (push button, mousepad)',
    ]);
    // The first step cannot move up nor the last down (their buttons only keep the place).
    assert.deepEqual(facts.actions, [
      'optional move-down delete-step',
      'optional move-up move-down make-parameter delete-step',
      'optional move-up move-down make-parameter delete-step',
      'optional move-up move-down delete-step',
      'optional move-up delete-step',
    ]);
    assert.deepEqual(facts.optional, ['false', 'false', 'false', 'false', 'true']);
    assert.equal(facts.proposal, ' Proposed by the person: click "Replace all" (push button, mousepad) — because "Replace All" was not found in mousepad');
    assert.equal(facts.failure, ' Last failure: step 4 (click "Replace All"): not found (2025-03-01T10:00:00.000Z)');
    assert.equal(facts.importedTrust, ' Imported: GAI asks before each of its steps until you confirm it.Confirm');
    assert.equal(facts.replaceTrust, 0);
    assert.deepEqual(facts.routineButtons, ['run', 'rename', 'export', 'forget']);
  });

  it('asks for the crops of the rows in view, shows them from data: URLs, and does not ask again on a redraw', async () => {
    // Below the screens and paths, out of view: nothing asked yet.
    await settle();
    assert.deepEqual(await postedOf('routineCrops'), []);
    await view.page.evaluate(() => document.querySelector('.routine-row[data-id="replace-words"]')?.scrollIntoView());
    await view.until(() => (window as unknown as BrainWindow).__posted.some((m) => m.type === 'routineCrops'));
    await settle();
    const asked = (await postedOf('routineCrops')).flatMap((m) => m.crops);
    const all = [crops.search, crops.replace, crops.button, crops.proposal].map((c) => cropToken(c!));
    assert.deepEqual([...asked].sort(), [...all].sort());
    await view.post({ type: 'routineCrops', crops: routineCropSrcs(routinesBrain(crops), asked) });
    await view.until(() => Array.from(document.querySelectorAll('img.step-crop')).every((img) => (img as HTMLImageElement).naturalWidth > 0 && !(img as HTMLImageElement).hidden));
    const images = () =>
      view.page.evaluate(() =>
        Array.from(document.querySelectorAll('img.step-crop')).map((img) => {
          const image = img as HTMLImageElement;
          return [image.closest('.step-row')?.getAttribute('data-step'), image.closest('.step-proposal') ? 'proposal' : 'step', image.alt, image.src.slice(0, 22), image.naturalWidth, image.hidden];
        }),
      );
    const before = await images();
    assert.deepEqual(before, [
      ['s-find', 'step', 'Where step 2 acts', 'data:image/png;base64,', 200, false],
      ['s-replace', 'step', 'Where step 3 acts', 'data:image/png;base64,', 200, false],
      ['s-all', 'step', 'Where step 4 acts', 'data:image/png;base64,', 200, false],
      ['s-all', 'proposal', 'Where the proposed step 4 acts', 'data:image/png;base64,', 200, false],
    ]);
    await clear();
    await view.post({ type: 'routines', ...buildRoutineViews(routinesBrain(crops)) });
    await settle();
    assert.deepEqual(await images(), before);
    assert.deepEqual(await postedOf('routineCrops'), []);
    assert.equal(await view.page.evaluate(() => document.querySelectorAll('#side [style]').length), 0);
  });

  it('posts the right request for each button', async () => {
    await clear();
    const clicks = [
      `${step('s-all')} vscode-toolbar-button[data-action="optional"]`,
      `${step('s-close')} vscode-toolbar-button[data-action="optional"]`,
      `${step('s-all')} vscode-toolbar-button[data-action="move-up"]`,
      `${step('s-find')} vscode-toolbar-button[data-action="move-down"]`,
      `${step('s-close')} vscode-toolbar-button[data-action="delete-step"]`,
      `${step('s-replace')} vscode-toolbar-button[data-action="make-parameter"]`,
      `${step('s-all')} vscode-button[data-action="accept"]`,
      `${step('s-all')} vscode-button[data-action="reject"]`,
      '.routine-row[data-id="replace-words"] .param-row[data-name="find"] vscode-toolbar-button[data-action="edit-parameter"]',
      '.routine-row[data-id="replace-words"] .param-row[data-name="replace"] vscode-toolbar-button[data-action="remove-parameter"]',
      '.routine-row[data-id="save-as-pdf"] vscode-button[data-action="confirm"]',
      '.routine-row[data-id="replace-words"] .row-head vscode-toolbar-button[data-action="run"]',
      '.routine-row[data-id="replace-words"] .row-head vscode-toolbar-button[data-action="rename"]',
      '.routine-row[data-id="replace-words"] .row-head vscode-toolbar-button[data-action="export"]',
      '.routine-row[data-id="save-as-pdf"] .row-head vscode-toolbar-button[data-action="forget"]',
    ];
    for (const selector of clicks) await view.page.click(selector);
    // A placeholder (the first step's "up") posts nothing.
    await view.page.evaluate(() => (document.querySelector('.step-row[data-step="s-open"] vscode-toolbar-button.placeholder') as HTMLElement | null)?.click());
    await settle();
    const id = 'replace-words';
    assert.deepEqual(await posted(), [
      { type: 'stepOptional', id, step: 's-all', optional: true },
      { type: 'stepOptional', id, step: 's-close', optional: false },
      { type: 'moveStep', id, step: 's-all', to: 3 },
      { type: 'moveStep', id, step: 's-find', to: 3 },
      { type: 'deleteStep', id, step: 's-close' },
      { type: 'makeParameter', id, step: 's-replace' },
      { type: 'acceptProposal', id, step: 's-all' },
      { type: 'rejectProposal', id, step: 's-all' },
      { type: 'editParameter', id, name: 'find' },
      { type: 'removeParameter', id, name: 'replace' },
      { type: 'confirmRoutine', id: 'save-as-pdf' },
      { type: 'runRoutine', id },
      { type: 'renameRoutine', id },
      { type: 'exportRoutine', id },
      { type: 'forgetRoutine', id: 'save-as-pdf' },
    ]);
  });

  it('shows names and steps from the brain as text only', async () => {
    const brain = routinesBrain(crops);
    const routine = brain.routines[0]!;
    routine.name = HOSTILE;
    routine.description = HOSTILE;
    routine.parameters[0]!.description = HOSTILE;
    routine.proposals[0]!.reason = HOSTILE;
    await view.post({ type: 'routines', ...buildRoutineViews(brain) });
    await view.until(() => document.querySelector('.routine-row .row-name')?.textContent?.startsWith('<img'));
    const facts = await view.page.evaluate(() => ({
      images: Array.from(document.querySelectorAll('#side img')).filter((img) => !img.classList.contains('step-crop')).length,
      handlers: document.querySelectorAll('[onerror]').length,
      pwned: (window as unknown as BrainWindow).__pwned,
    }));
    assert.deepEqual(facts, { images: 0, handlers: 0, pwned: undefined });
  });

  it('says so when there are no routines', async () => {
    await view.post({ type: 'routines', routines: [], total: 0 });
    await view.until(() => document.querySelector('.routine-list .none') !== null);
    assert.equal(await view.page.evaluate(() => document.querySelector('.routine-list')?.textContent), 'No routines yet — show GAI a task with GAI: Record Steps...');
  });

  for (const slug of ['light', 'hc', 'hc-light', 'dark']) {
    it(`${slug}: the routine texts are readable; screenshot`, async () => {
      const theme = themes.find((candidate) => candidate.slug === slug);
      assert.ok(theme, `no theme ${slug}`);
      await applyTheme(view.page, theme, '--vscode-editor-background');
      const brain = routinesBrain(crops);
      await view.post({ type: 'graph', graph: buildBrainGraph(brain) }, { type: 'routines', ...buildRoutineViews(brain) });
      await view.until(() => document.querySelectorAll('.routine-row').length === 2);
      await view.post({ type: 'routineCrops', crops: routineCropSrcs(brain, [crops.search, crops.replace, crops.button, crops.proposal].map((c) => cropToken(c!))) });
      // The screens and paths folded, so the routines are what the panel shows.
      await view.page.evaluate(() => {
        for (const section of Array.from(document.querySelectorAll('vscode-collapsible:not(.routine-section)'))) (section as HTMLElement & { open: boolean }).open = false;
        document.getElementById('side')?.scrollTo(0, 0);
      });
      await view.until(() => Array.from(document.querySelectorAll('img.step-crop')).every((img) => (img as HTMLImageElement).naturalWidth > 0 && !(img as HTMLImageElement).hidden));
      const texts = await view.page.evaluate(() => {
        const layersOf = (element: Element | null): string[] => {
          const layers: string[] = [];
          for (let node = element; node; node = node.parentElement) layers.unshift(getComputedStyle(node).backgroundColor);
          return layers;
        };
        return ['.routine-row .row-name', '.routine-row .row-meta', '.step-number', '.step-words', '.param-name', '.param-description', '.proposal-text', '.routine-trust span:not(.codicon)', '.routine-row .path-failure']
          .map((selector) => ({ selector, element: document.querySelector(selector) }))
          .map(({ selector, element }) => ({ selector, color: element ? getComputedStyle(element).color : '', layers: layersOf(element) }));
      });
      for (const text of texts) {
        assert.ok(text.color, `${text.selector} is not there`);
        const background = flatten(text.layers);
        const ratio = contrast(over(parseColor(text.color), background), background);
        assert.ok(ratio >= 4.5, `${theme.label}: ${text.selector} has contrast ${ratio.toFixed(2)} (< 4.5)`);
      }
      if (slug === 'dark') await view.page.screenshot({ path: screenshotPath('brain-routines.png') });
      else {
        const dir = join(tmpdir(), 'gai-screenshots');
        mkdirSync(dir, { recursive: true });
        await view.page.screenshot({ path: join(dir, `brain-routines-${slug}.png`) });
      }
    });
  }

  it('fits a 300-px wide panel: nothing scrolls sideways', async () => {
    await (view.page as unknown as { setViewportSize(size: { width: number; height: number }): Promise<void> }).setViewportSize({ width: 300, height: 700 });
    await settle();
    const layout = await view.page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, width: document.documentElement.clientWidth, side: document.getElementById('side')?.scrollWidth, sideWidth: document.getElementById('side')?.clientWidth }));
    assert.ok(layout.scrollWidth <= layout.width, `the panel scrolls sideways (${layout.scrollWidth} > ${layout.width})`);
    assert.ok((layout.side ?? 0) <= (layout.sideWidth ?? 0), `the side panel scrolls sideways (${layout.side} > ${layout.sideWidth})`);
  });

  it('had no CSP violations, console errors or page errors', async () => {
    assert.deepEqual(await view.violations(), []);
    assert.deepEqual(view.problems, []);
  });
});
