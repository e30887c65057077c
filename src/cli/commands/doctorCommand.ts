import type { Command } from 'commander';
import { checkSetup, type SetupCheck, type SetupReport } from '../../platform/setupCheck';
import { EXIT, out, type CliIo } from '../../common/cliIo';

/** `gai doctor`: are the native parts (nut-js, sharp, tesseract.js and its data) there and working? */
export function registerDoctorCommand(program: Command, io: CliIo, ocrLanguage: () => string | undefined, setExit: (code: number) => void): void {
  program
    .command('doctor')
    .description('check that the desktop parts load: nut-js native module, sharp, offline OCR (touches no display)')
    .option('--json', 'print the report as JSON')
    .action(async (options: { json?: boolean }) => {
      const report = await checkSetup({ language: ocrLanguage() });
      out(io, options.json ? JSON.stringify(report, null, 2) + '\n' : formatSetupReport(report));
      setExit(report.ok ? EXIT.ok : EXIT.failed);
    });
}

export function formatSetupReport(report: SetupReport): string {
  const row = (name: string, check: SetupCheck): string =>
    `  ${name.padEnd(8)} ${check.ok ? 'ok  ' : 'FAIL'}  ${check.detail} (${Math.round(check.ms)} ms)\n`;
  return (
    `GAI setup check (${report.platform}, Node ${report.node})\n` +
    row('nut-js', report.nut) +
    row('sharp', report.sharp) +
    row(`OCR ${report.ocr.language}`, report.ocr) +
    `  ${'display'.padEnd(8)} ${report.display.ok ? 'ok  ' : report.display.kind === 'none' ? 'none' : 'FAIL'}  ${report.display.detail}\n` +
    `  ${'browsers'.padEnd(8)} ${report.browsers.ok ? 'ok  ' : 'note'}  ${report.browsers.detail}\n` +
    `  ${'GTK 2'.padEnd(8)} ${report.gtk2.ok ? 'ok  ' : 'note'}  ${report.gtk2.detail}\n` +
    (report.ok ? 'All parts found.\n' : 'Some parts are missing or broken; see above.\n') +
    (report.display.ok || report.display.kind === 'none' ? '' : 'GAI cannot drive this desktop; the display row says why and what to do.\n')
  );
}
