// Serves our fixture pages on 127.0.0.1 to a browser we cannot drive (Firefox ESR has no
// DevTools protocol or marionette here): a probe script added to each page asks the server for
// work, reports the page's visible labels with their screen offset (window.mozInnerScreenX/Y),
// and the page posts every click it records. The truth comes from the page's own DOM.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { delay } from './appWindow';
import { LABELS_SCRIPT, PAGES_DIR, type DomLabel } from './chromiumApp';

/** Polls for a request every 100 ms; answers "labels" with the DOM's labels and the viewport's screen origin. */
const PROBE = String.raw`<script>
(() => {
  const collect = () => ${LABELS_SCRIPT};
  async function poll() {
    try {
      const r = await fetch('/gai/next', { cache: 'no-store' });
      if (r.status === 200 && (await r.text()) === 'labels') {
        const origin = [window.mozInnerScreenX ?? NaN, window.mozInnerScreenY ?? NaN];
        await fetch('/gai/labels', { method: 'POST', body: JSON.stringify({ origin, scale: devicePixelRatio, labels: collect() }) });
      }
    } catch (e) {}
    setTimeout(poll, 100);
  }
  poll();
})();
</script>`;

interface LabelReport {
  origin: [number, number];
  scale: number;
  labels: Array<Omit<DomLabel, 'bbox'> & { box: [number, number, number, number] }>;
}

export class PageServer {
  private readonly clicks: string[] = [];
  private wanted = false;
  private report?: LabelReport;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<PageServer> {
    const holder: { instance?: PageServer } = {};
    const server = createServer((request, response) => holder.instance!.handle(request, response));
    const instance = (holder.instance = new PageServer(server));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return instance;
  }

  /** The address of a page of fixtures/pages. */
  url(page: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/${page}`;
  }

  /** The page's visible labels in screen pixels (asks the page and waits for its report). */
  async labels(timeoutMs = 10_000): Promise<DomLabel[]> {
    this.report = undefined;
    this.wanted = true;
    const deadline = Date.now() + timeoutMs;
    let report: LabelReport | undefined;
    while (!(report = this.takeReport())) {
      if (Date.now() > deadline) throw new Error('the page did not report its labels (is it loaded, is its script running?)');
      await delay(50);
    }
    const { origin, scale, labels } = report;
    if (!Number.isFinite(origin[0]) || !Number.isFinite(origin[1])) throw new Error('the browser gave no screen position for its viewport (window.mozInnerScreenX)');
    if (scale !== 1) throw new Error(`the page is drawn at ${scale} device pixels per CSS pixel; the truth assumes 1`);
    return labels.map(({ box, ...rest }) => ({ ...rest, bbox: { x: Math.round(box[0] + origin[0]), y: Math.round(box[1] + origin[1]), width: box[2], height: box[3] } }));
  }

  private takeReport(): LabelReport | undefined {
    return this.report;
  }

  /** Ids of the elements clicked since the last call. */
  takeClicks(): string[] {
    return this.clicks.splice(0);
  }

  /** The clicks recorded once at least one arrived, or none after `timeoutMs`. */
  async waitForClicks(timeoutMs = 1500): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.clicks.length === 0 && Date.now() < deadline) await delay(25);
    if (this.clicks.length > 0) await delay(80); // a double delivery would show now
    return this.takeClicks();
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/gai/next') {
      const ask = this.wanted;
      this.wanted = false;
      response.writeHead(ask ? 200 : 204, { 'cache-control': 'no-store' }).end(ask ? 'labels' : undefined);
      return;
    }
    if (request.method === 'POST') {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        if (url.pathname === '/gai/click') this.clicks.push(body);
        else if (url.pathname === '/gai/labels') this.report = JSON.parse(body) as LabelReport;
        response.writeHead(204).end();
      });
      return;
    }
    const name = path.basename(url.pathname);
    if (!/^[\w-]+\.html$/.test(name)) {
      response.writeHead(404).end();
      return;
    }
    try {
      const html = readFileSync(path.join(PAGES_DIR, name), 'utf8').replace('</body>', `${PROBE}\n</body>`);
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
    } catch {
      response.writeHead(404).end();
    }
  }
}
