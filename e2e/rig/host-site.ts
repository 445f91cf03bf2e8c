import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A business's own website for the embed tests: a second loopback port (so a different
 * origin from the app), serving pages the test writes, each wrapped in hostile CSS that a
 * real site might have and that must neither break the widget nor be changed by it.
 */
export const HOSTILE_CSS = `
  * { all: unset; }
  html, body, p, div, section, main, h1 { display: block; }
  html { font-size: 40px; }
  * { font-size: 40px; font-family: "Comic Sans MS", cursive; color: rgb(128, 0, 128); }
  button { display: none !important; }
  head, script, style { display: none; }
`;

export interface HostSite {
  origin: string;
  /** Serves `body` (HTML inside <body>) at `path`, under the hostile stylesheet. */
  setPage(path: string, title: string, body: string): string;
  close(): Promise<void>;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${HOSTILE_CSS}</style>
<script>
  // The host's own analytics: what the estimator told the page.
  window.estimatorEvents = [];
  for (const name of ['tree-estimator:result', 'tree-estimator:lead']) {
    document.addEventListener(name, (event) => {
      window.estimatorEvents.push({ name, tag: event.target.tagName.toLowerCase(), detail: event.detail });
    });
  }
</script>
</head>
<body>
<main>
<h1>Oakfield Garden Services</h1>
<p id="host-text">We look after gardens across the county. Get a price for your tree below.</p>
<div style="height: 900px" aria-hidden="true"></div>
${body}
</main>
</body>
</html>`;
}

/** Serves pages made by `render` (this file's plain page unless another host's look is given) at the paths a test sets. */
export async function startHostSite(render: (title: string, body: string) => string = page): Promise<HostSite> {
  const pages = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const html = pages.get((req.url ?? '/').split('?')[0] ?? '/');
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // Another port is another origin: the app's cookies, storage and styles are not this page's.
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    setPage(path, title, body) {
      pages.set(path, render(title, body));
      return origin + path;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
