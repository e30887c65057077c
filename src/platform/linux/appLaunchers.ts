import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { basename, delimiter, join } from 'node:path';
import { withoutSecretEnv } from '../../common/secretEnv';
import { applicationDirs, execToArgv, findDesktopEntry, readDesktopEntries } from './desktopEntries';
import { assertAppName, isLaunchAllowed, LaunchNotAllowedError } from '../../desktop/input/launchNames';
import type { AppLauncher, LaunchResult } from '../../desktop/ports/appLauncherPort';
import { accessibleAppArgs, accessibleAppEnv } from './accessibleLaunch';

/**
 * Linux: desktop entries by name (as a launcher menu would); an executable on PATH only when
 * the person allowed it by name (`allowPrograms`: gai.launch.allow, CLI launch.allow).
 */
export class LinuxAppLauncher implements AppLauncher {
  /** `holdsSecret`: whether a variable's value holds a secret registered at run time (left out too). */
  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly holdsSecret?: (value: string) => boolean,
    private readonly allowPrograms: readonly string[] = [],
  ) {}

  async launch(appName: string): Promise<LaunchResult> {
    assertAppName(appName);
    const entry = findDesktopEntry(await readDesktopEntries(applicationDirs(this.env)), appName);
    if (entry) {
      const [command, ...args] = execToArgv(entry.exec);
      if (command) return { method: `desktop entry ${entry.file} (${entry.name})`, pid: await start(command, accessibleAppArgs(command, args), this.appEnv()) };
    }
    const executable = await findExecutable(appName, this.env);
    // `rm`, `curl` or `reboot` are on PATH too: a program runs only when the person named it.
    if (executable && !isLaunchAllowed(this.allowPrograms, appName, basename(executable))) throw new LaunchNotAllowedError(appName, executable);
    if (executable) return { method: `executable ${executable}`, pid: await start(executable, accessibleAppArgs(executable, []), this.appEnv()) };
    throw new Error(`no application called "${appName}": no desktop entry matches and no such program is on PATH`);
  }

  /**
   * Our environment without the model providers' keys (the app has no use for them), with the
   * toolkits' accessibility switches on so its labels can be read from the tree.
   */
  private appEnv(): NodeJS.ProcessEnv {
    return accessibleAppEnv(withoutSecretEnv(this.env, this.holdsSecret));
  }
}

/** macOS: `open -a`, which finds apps the way Spotlight and the Dock do. */
export class MacAppLauncher implements AppLauncher {
  constructor(private readonly holdsSecret?: (value: string) => boolean) {}

  async launch(appName: string): Promise<LaunchResult> {
    assertAppName(appName); // `open -a` itself finds only app bundles
    await runToEnd('open', ['-a', appName], withoutSecretEnv(process.env, this.holdsSecret));
    return { method: `open -a "${appName}"` };
  }
}

/**
 * Windows: a Start menu shortcut, else an App Paths registration (as the Run box does), else a
 * program on PATH only when the person allowed it by name. The name reaches PowerShell as an
 * environment variable, never inside the script's text, so it cannot change the script.
 * Not run on this project's Linux test machines.
 */
export class WindowsAppLauncher implements AppLauncher {
  constructor(
    private readonly holdsSecret?: (value: string) => boolean,
    private readonly allowPrograms: readonly string[] = [],
  ) {}

  async launch(appName: string): Promise<LaunchResult> {
    assertAppName(appName);
    const env = {
      ...withoutSecretEnv(process.env, this.holdsSecret),
      GAI_LAUNCH_NAME: appName,
      GAI_LAUNCH_PROGRAM_ALLOWED: isLaunchAllowed(this.allowPrograms, appName) ? '1' : '0',
    };
    // Start-Process hands powershell's environment on to the app.
    const out = (await runToEnd('powershell', ['-NoProfile', '-NonInteractive', '-Command', WINDOWS_LAUNCH_SCRIPT], env)).trim().split(/\r?\n/).at(-1) ?? '';
    const [outcome = '', detail = ''] = out.split('|');
    if (outcome === 'started') return { method: detail };
    if (outcome === 'refused') throw new LaunchNotAllowedError(appName, detail);
    throw new Error(`no application called "${appName}": no Start menu entry or App Paths registration matches it`);
  }
}

// Prints one line: started|<how>, refused|<program> (on PATH but not allowed) or none|.
const WINDOWS_LAUNCH_SCRIPT = [
  "$ErrorActionPreference='Stop'",
  '$n=$env:GAI_LAUNCH_NAME',
  "$dirs=@(\"$env:ProgramData\\Microsoft\\Windows\\Start Menu\",\"$env:APPDATA\\Microsoft\\Windows\\Start Menu\")",
  '$l=Get-ChildItem -LiteralPath $dirs -Recurse -Filter *.lnk -ErrorAction SilentlyContinue|Where-Object{$_.BaseName -like "*$n*"}|Sort-Object{$_.BaseName.Length}|Select-Object -First 1',
  "if($l){Start-Process -FilePath $l.FullName;'started|shortcut '+$l.BaseName;exit 0}",
  "foreach($root in 'HKCU:','HKLM:'){$k=Join-Path $root ('Software\\Microsoft\\Windows\\CurrentVersion\\App Paths\\'+$n+'.exe');if(Test-Path -LiteralPath $k){$exe=(Get-ItemProperty -LiteralPath $k).'(default)';if($exe){Start-Process -FilePath $exe;'started|app path '+$exe;exit 0}}}",
  '$c=Get-Command -CommandType Application -Name $n -ErrorAction SilentlyContinue|Select-Object -First 1',
  "if($c -and $env:GAI_LAUNCH_PROGRAM_ALLOWED -eq '1'){Start-Process -FilePath $c.Source;'started|program '+$c.Source;exit 0}",
  "if($c){'refused|'+$c.Source;exit 0}",
  "'none|'",
].join(';');

/** Starts a program detached from us: it must outlive the agent and the CLI. */
function start(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, detached: true, stdio: 'ignore' });
    child.once('error', (error) => reject(new Error(`cannot start ${command}: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve(child.pid);
    });
  });
}

function runToEnd(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', (error) => reject(new Error(`cannot run ${command}: ${error.message}`)));
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(err.trim() || `${command} exited with ${code}`))));
  });
}

async function findExecutable(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const candidates = [...new Set([name, name.toLowerCase(), name.toLowerCase().replace(/\s+/g, '-'), name.toLowerCase().replace(/\s+/g, '')])];
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const candidate of candidates) {
      if (candidate.includes('/')) continue;
      const path = join(dir, candidate);
      try {
        await access(path, constants.X_OK);
        return path;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}
