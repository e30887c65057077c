import type { Command } from 'commander';
import { checkSetup, type SetupCheck, type SetupReport } from '../../platform/setupCheck';
import { checkOwnDesktop, installOwnDesktopPackages, type OwnDesktopReadiness } from '../../platform/linux/ownDesktopReadiness';
import { EXIT, err, out, type CliIo } from '../../common/cliIo';
import { VERIFICATION_WORDS } from '../../platform/platformSupport';

/** Names another os-release file than /etc/os-release: the install line for an image being built, or a test's. */
export const OS_RELEASE_VAR = 'GAI_OS_RELEASE';

/**
 * `gai doctor`: are the native parts (nut-js, sharp, tesseract.js and its data) there and working,
 * and what GAI's own desktop needs (Linux)? `--fix` installs the latter through the distribution's
 * package manager when run as root, and prints the exact line with sudo otherwise.
 */
export function registerDoctorCommand(program: Command, io: CliIo, ocrLanguage: () => string | undefined, setExit: (code: number) => void): void {
  program
    .command('doctor')
    .description("check that the desktop parts load (nut-js native module, sharp, offline OCR) and what GAI's own desktop needs (touches no display)")
    .option('--json', 'print the report as JSON')
    .option('--fix', "install what GAI's own desktop is missing (Xvfb, openbox, D-Bus, AT-SPI, python3-gi, python3-xlib, fonts…) with apt, dnf, apk or pacman; as root, else it prints the command")
    .action(async (options: { json?: boolean; fix?: boolean }) => {
      const own = process.platform === 'linux' ? await checkOwnDesktop(io.env, { osReleaseFile: io.env[OS_RELEASE_VAR] }) : undefined;
      const fixed = options.fix && own && !own.ok ? await fixOwnDesktop(io, own, options.json === true) : undefined;
      const after = fixed?.ok ? await checkOwnDesktop(io.env, { osReleaseFile: io.env[OS_RELEASE_VAR] }) : own;
      // After the fix: nut-js's native module needs libXtst and libX11, which xdotool brings.
      const report = await checkSetup({ language: ocrLanguage() });
      out(io, options.json ? JSON.stringify({ ...report, ownDesktop: after && jsonOf(after) }, null, 2) + '\n' : formatSetupReport(report, after));
      // The own desktop's row is a note, unless it was asked to be fixed: then it decides too.
      setExit(report.ok && (!options.fix || !after || after.ok) ? EXIT.ok : EXIT.failed);
    });
}

/** Runs the install line as root; otherwise says which line to run. */
async function fixOwnDesktop(io: CliIo, own: OwnDesktopReadiness, quiet: boolean): Promise<{ ok: boolean }> {
  if (!own.install) {
    err(io, `gai doctor --fix: ${own.detail}\n`);
    return { ok: false };
  }
  if (!own.install.asRoot) {
    err(io, `gai doctor --fix: installing needs root; run:\n  ${own.install.line}\n`);
    return { ok: false };
  }
  err(io, `gai doctor --fix: installing ${own.missing.map((part) => part.name).join(', ')}\n`);
  const outcome = await installOwnDesktopPackages(own.install.steps, io.env, (text) => (quiet ? undefined : io.stderr.write(text)));
  if (!outcome.ok) err(io, `gai doctor --fix: ${outcome.detail}\n`);
  return outcome;
}

function jsonOf(own: OwnDesktopReadiness): Record<string, unknown> {
  return {
    ok: own.ok,
    detail: own.detail,
    missing: own.missing.map((part) => part.name),
    distribution: own.release && { id: own.release.id, idLike: own.release.idLike, family: own.family },
    install: own.install?.line,
  };
}

export function formatSetupReport(report: SetupReport, own?: OwnDesktopReadiness): string {
  const row = (name: string, check: SetupCheck): string =>
    `  ${name.padEnd(11)} ${check.ok ? 'ok  ' : 'FAIL'}  ${check.detail} (${Math.round(check.ms)} ms)\n`;
  const note = (name: string, ok: boolean, detail: string): string => `  ${name.padEnd(11)} ${ok ? 'ok  ' : 'note'}  ${detail}\n`;
  const noDisplay = report.display.kind === 'none';
  return (
    `GAI setup check (${report.platform}, Node ${report.node})\n` +
    row('nut-js', report.nut) +
    row('sharp', report.sharp) +
    row(`OCR ${report.ocr.language}`, report.ocr) +
    `  ${'display'.padEnd(11)} ${report.display.ok ? 'ok  ' : noDisplay ? 'none' : 'FAIL'}  ${report.display.detail}${noDisplay && own ? "; or GAI's own desktop: --desktop own (below)" : ''}\n` +
    note('browsers', report.browsers.ok, report.browsers.detail) +
    note('GTK 2', report.gtk2.ok, report.gtk2.detail) +
    (own ? note('own desktop', own.ok, own.detail) + (own.install ? `  ${''.padEnd(11)}       or: gai doctor --fix${own.install.asRoot ? '' : ' (as root)'}\n` : '') : '') +
    (report.permissions ? note('permissions', report.permissions.ok, report.permissions.detail) + report.permissions.panes.map((pane) => `  ${''.padEnd(11)}       open '${pane}'\n`).join('') : '') +
    supportLines(report) +
    (!report.ok ? 'Some parts are missing or broken; see above.\n' : own && !own.ok ? "The desktop parts work; GAI's own desktop is missing some (its row says which and how to install them).\n" : 'All parts found.\n') +
    (report.display.ok || noDisplay ? '' : 'GAI cannot drive this desktop; the display row says why and what to do.\n')
  );
}

/** Each part of this platform, how GAI does it and what proves it works. */
function supportLines(report: SetupReport): string {
  const lines = report.support.map((part) => `  ${part.part.padEnd(24)} ${part.verified.padEnd(11)} ${part.how}\n`);
  const used = [...new Set(report.support.map((part) => part.verified))].map((v) => `${v}: ${VERIFICATION_WORDS[v]}`);
  return `What GAI does on ${report.platform.split(' ')[0]}, and what checks it (${used.join('; ')}):\n${lines.join('')}`;
}
