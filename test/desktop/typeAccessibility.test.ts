// type_text through the focused field's accessibility interface (via: "accessibility") into a
// real GTK 3 window (fixtures/gtkPasswordApp.py): no key event is sent, so characters no keyboard
// layout has arrive too, and a password entry (AT-SPI role `password text`) takes a secret that
// is shown only as its length. A focused control that is no text field is refused.
import { strict as assert } from 'node:assert';
import { AtspiAccessibility } from '../../src/platform/linux/atspi/atspiAccessibility';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { suiteDisplay } from './support/fixture';
import { clickCentre, gtkFixtureMissing, startGtkPasswordApp, type GtkPasswordApp } from './support/gtkPasswordFixture';

const display = suiteDisplay();

describe('type_text through the accessibility tree (GTK 3 entries, no key event)', function () {
  this.timeout(60_000);
  let gtk: GtkPasswordApp | undefined;
  let rig: DesktopRig | undefined;

  before(function () {
    const missing = gtkFixtureMissing(display);
    if (missing) {
      this.test!.parent!.title += ` (skipped: ${missing})`;
      this.skip();
    }
  });
  after(async () => {
    gtk?.stop();
    await rig?.dispose();
  });

  it('puts text into the focused entry, then a secret into the password entry, shown only as its length', async function () {
    gtk = await startGtkPasswordApp(display, { title: 'GAI Tree Typing' });
    if (!(await new AtspiAccessibility(gtk.env).available())) this.skip(); // accessibility.test.ts says why
    rig = createDesktopRig(gtk.env);
    await clickCentre(display, gtk.widgets.user_entry!);
    const plain = await rig.run('type_text', { text: 'Ada Lovelace ∑ ✓', via: 'accessibility' });
    assert.equal(plain.success, true, plain.error);
    assert.match(plain.observation, /through its accessibility interface \(no key pressed\)/);
    await gtk.waitFor((e) => e.event === 'text' && e.widget === 'user_entry' && e.value === 'Ada Lovelace ∑ ✓');

    await clickCentre(display, gtk.widgets.password_entry!);
    const secret = await rig.run('type_text', { text: 'plain words 42', via: 'accessibility' });
    assert.equal(secret.success, true, secret.error);
    assert.ok(!JSON.stringify(secret).includes('plain words'), `the password field's text is not shown: ${JSON.stringify(secret)}`);
    await gtk.waitFor((e) => e.event === 'text' && e.widget === 'password_entry' && e.value === 'plain words 42');
  });
});
