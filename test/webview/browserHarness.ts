// Loads the real chat webview (the built media/dist/webview.js in the page chatHtmlFor() makes,
// CSP included) into headless chromium, driven by the playwright-core that the VS Code host
// installer keeps in its cache (scripts/vscodeHost). Used by test/vscode/webview.test.ts, and
// with another page builder by test/vscode/brainView.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { extname, join, resolve, sep } from 'node:path';
import type { HostMessage, WebviewMessage } from '../../src/shared/protocol';
import { chatHtmlFor } from '../../src/vscode/chat/chatHtmlShell';

export const ROOT = resolve(__dirname, '../..');

/**
 * Where a test's screenshot of the chat goes: docs/screenshots (committed, for the README) only
 * with GAI_UPDATE_SCREENSHOTS=1, else a temporary folder, so a test run leaves the tree as it was.
 */
export function screenshotPath(name: string): string {
  const dir = process.env.GAI_UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs/screenshots') : join(tmpdir(), 'gai-screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
const MEDIA = join(ROOT, 'media');
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.map': 'application/json', '.svg': 'image/svg+xml' };

/** The parts of playwright-core's API these tests use (its types live in the host cache). */
export interface Page {
  addInitScript(script: string): Promise<void>;
  goto(url: string): Promise<unknown>;
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  waitForFunction<A>(fn: (arg: A) => unknown, arg?: A, options?: { timeout?: number }): Promise<unknown>;
  click(selector: string): Promise<void>;
  focus(selector: string): Promise<void>;
  keyboard: { press(key: string): Promise<void>; type(text: string): Promise<void> };
  screenshot(options: { path: string }): Promise<unknown>;
  on(event: 'console', listener: (message: { type(): string; text(): string }) => void): void;
  on(event: 'pageerror', listener: (error: Error) => void): void;
}
interface Browser {
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<Page>;
  close(): Promise<void>;
}

/** What the init script records in the page (see INIT_SCRIPT). */
export interface TestWindow {
  __posted: WebviewMessage[];
  __savedState: unknown;
  __violations: string[];
  __pwned?: unknown;
  __gaiChat: { slowestRenderMs(): number; flush(): void };
}

// Runs before the page's own script: stands in for VS Code's acquireVsCodeApi and records CSP
// violations (an init script is injected by the browser, so the page's CSP does not apply to it).
const INIT_SCRIPT = `
// tsx compiles the tests' page functions with esbuild's keepNames, which calls __name().
window.__name = (target) => target;
window.__posted = [];
window.__savedState = undefined;
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push(e.violatedDirective + ' blocked ' + (e.blockedURI || '(inline)') + ' at ' + e.sourceFile + ':' + e.lineNumber);
});
window.acquireVsCodeApi = () => ({
  postMessage: (message) => window.__posted.push(JSON.parse(JSON.stringify(message))),
  getState: () => window.__savedState,
  setState: (state) => { window.__savedState = JSON.parse(JSON.stringify(state)); },
});
`;

/** Builds the page served at `/`: `origin` is the resource origin (cspSource), `nonce` fresh. */
export type PageHtml = (origin: string, nonce: string) => string;

/** The chat page (chatHtmlFor with this server's origin); the default. */
export const CHAT_PAGE: PageHtml = (origin, nonce) =>
  chatHtmlFor({
    cspSource: origin,
    scriptUri: `${origin}/media/dist/webview.js`,
    styleUri: `${origin}/media/chat.css`,
    codiconsUri: `${origin}/media/dist/codicons/codicon.css`,
    nonce,
  });

export interface PageOptions {
  html?: PageHtml;
  viewport?: { width: number; height: number };
}

/** A webview page; `In` is what the host posts to it, `Out` what it posts back. */
export class ChatPage<In = HostMessage, Out = WebviewMessage> {
  /** Console messages of type error or warning, and uncaught page errors. */
  readonly problems: string[] = [];

  private constructor(
    readonly page: Page,
    private readonly browser: Browser,
    private readonly server: Server,
  ) {}

  /** Builds the bundles, serves media/ and opens the chat page (or `options.html`'s). */
  static async open<In = HostMessage, Out = WebviewMessage>(options: PageOptions = {}): Promise<ChatPage<In, Out>> {
    buildBundles();
    const { hostPaths } = (await import('../../scripts/vscodeHost/install.mjs')) as typeof import('../../scripts/vscodeHost/install.mjs');
    const { CHROMIUM_ARGS } = (await import('../../scripts/vscodeHost/run.mjs')) as typeof import('../../scripts/vscodeHost/run.mjs');
    // Normally installed by the vscode suite's setup; when this file runs alone, install here.
    if (!existsSync(hostPaths().playwrightCore)) installHost();
    const paths = hostPaths();
    const server = await serveChat(options.html ?? CHAT_PAGE);
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    let browser: Browser | undefined;
    try {
      const { chromium } = createRequire(__filename)(paths.playwrightCore) as {
        chromium: { launch(options: object): Promise<Browser> };
      };
      browser = await chromium.launch({ executablePath: paths.chromium, headless: true, args: CHROMIUM_ARGS });
      const page = await browser.newPage({ viewport: options.viewport ?? { width: 420, height: 700 } });
      const chat = new ChatPage<In, Out>(page, browser, server);
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') chat.problems.push(`console.${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => chat.problems.push(`page error: ${error.message}`));
      await page.addInitScript(INIT_SCRIPT);
      await page.goto(`${origin}/`);
      return chat;
    } catch (error) {
      await browser?.close();
      await closeServer(server);
      throw error;
    }
  }

  /** Opens the chat page and waits until its script has said it is ready. */
  static async openReady(options: PageOptions = {}): Promise<ChatPage> {
    const chat = await ChatPage.open(options);
    await chat.until(() => (window as unknown as TestWindow).__posted.some((message) => message.type === 'ready'));
    return chat;
  }

  async close(): Promise<void> {
    await this.browser.close();
    await closeServer(this.server);
  }

  /** Posts host messages to the webview the way VS Code does (a window message event). */
  async post(...messages: In[]): Promise<void> {
    await this.page.evaluate((list) => {
      for (const message of list) window.postMessage(message, '*');
    }, messages);
  }

  async posted(): Promise<Out[]> {
    return this.page.evaluate(() => (window as unknown as TestWindow).__posted as Out[]);
  }

  async violations(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as TestWindow).__violations);
  }

  /** Waits until `fn` is truthy in the page. */
  async until<A>(fn: (arg: A) => unknown, arg?: A, timeout = 10_000): Promise<void> {
    await this.page.waitForFunction(fn, arg, { timeout });
  }
}

function installHost(): void {
  const installed = spawnSync(process.execPath, [join(ROOT, 'scripts/vscodeHost/install.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (installed.status !== 0) throw new Error(`scripts/vscodeHost/install.mjs failed:\n${installed.stdout}${installed.stderr}`);
}

function buildBundles(): void {
  const built = spawnSync(process.execPath, [join(ROOT, 'esbuild.config.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`node esbuild.config.mjs failed:\n${built.stdout}${built.stderr}`);
}

/** `/` is the page from `html` with this server as the resource origin; `/media/*` the files. */
async function serveChat(html: PageHtml): Promise<Server> {
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const origin = `http://${request.headers.host ?? 'localhost'}`;
      if (url.pathname === '/favicon.ico') {
        response.writeHead(204).end();
        return;
      }
      if (url.pathname === '/') {
        const page = html(origin, randomBytes(16).toString('base64'));
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
        return;
      }
      const file = resolve(ROOT, `.${decodeURIComponent(url.pathname)}`);
      if (!file.startsWith(MEDIA + sep)) {
        response.writeHead(404).end();
        return;
      }
      try {
        const body = await readFile(file);
        response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
      } catch {
        response.writeHead(404).end();
      }
    })();
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolveListen());
  });
  return server;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
}
