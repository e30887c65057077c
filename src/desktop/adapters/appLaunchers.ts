import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { withoutSecretEnv } from '../../core/secretEnv';
import { applicationDirs, execToArgv, findDesktopEntry, readDesktopEntries } from '../desktopEntries';
import type { AppLauncher, LaunchResult } from '../ports/appLauncherPort';

/** Linux: desktop entries by name (as a launcher menu would), else an executable on PATH. */
export class LinuxAppLauncher implements AppLauncher {
  /** `holdsSecret`: whether a variable's value holds a secret registered at run time (left out too). */
  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly holdsSecret?: (value: string) => boolean,
  ) {}

  async launch(appName: string): Promise<LaunchResult> {
    const entry = findDesktopEntry(await readDesktopEntries(applicationDirs(this.env)), appName);
    if (entry) {
      const [command, ...args] = execToArgv(entry.exec);
      if (command) return { method: `desktop entry ${entry.file} (${entry.name})`, pid: await start(command, args, this.appEnv()) };
    }
    const executable = await findExecutable(appName, this.env);
    if (executable) return { method: `executable ${executable}`, pid: await start(executable, [], this.appEnv()) };
    throw new Error(`no application called "${appName}": no desktop entry matches and no such program is on PATH`);
  }

  /** Our environment without the model providers' keys: the app has no use for them. */
  private appEnv(): NodeJS.ProcessEnv {
    return withoutSecretEnv(this.env, this.holdsSecret);
  }
}

/** macOS: `open -a`, which finds apps the way Spotlight and the Dock do. */
export class MacAppLauncher implements AppLauncher {
  constructor(private readonly holdsSecret?: (value: string) => boolean) {}

  async launch(appName: string): Promise<LaunchResult> {
    await runToEnd('open', ['-a', appName], withoutSecretEnv(process.env, this.holdsSecret));
    return { method: `open -a "${appName}"` };
  }
}

/** Windows: Start menu shortcuts and App Paths through `start`, as the Run box does. */
export class WindowsAppLauncher implements AppLauncher {
  constructor(private readonly holdsSecret?: (value: string) => boolean) {}

  async launch(appName: string): Promise<LaunchResult> {
    const ps = `$n='${appName.replaceAll("'", "''")}';$l=Get-ChildItem -Recurse -Filter *.lnk "$env:ProgramData\\Microsoft\\Windows\\Start Menu","$env:APPDATA\\Microsoft\\Windows\\Start Menu" -ErrorAction SilentlyContinue|Where-Object{$_.BaseName -like "*$n*"}|Sort-Object{$_.BaseName.Length}|Select-Object -First 1;if($l){Start-Process $l.FullName;'shortcut '+$l.BaseName}else{Start-Process $n;'start '+$n}`;
    // Start-Process hands powershell's environment on to the app.
    const method = await runToEnd('powershell', ['-NoProfile', '-Command', ps], withoutSecretEnv(process.env, this.holdsSecret));
    return { method: method.trim() };
  }
}

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
