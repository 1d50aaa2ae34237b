import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/**
 * Sends the live page with a policy of its own: mounted on the app (demo mode), the app's
 * Content-Security-Policy would block the page's inline script, so the page allows exactly that
 * script by nonce and nothing else from anywhere but its own origin.
 */
export function sendLightsPage(reply: FastifyReply, title: string): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .type('text/html; charset=utf-8')
    .header(
      'content-security-policy',
      `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; ` +
        "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
    )
    .send(renderLightsPage(title, nonce));
}

/**
 * The demo page that shows every virtual bulb live: plain HTML polling `<base>/_control/bulbs`
 * every 250 ms, where `<base>` is the page's own path (so it works under /sims/lifx/ or any prefix).
 * The JSON holds `{ bulbs: [{ id, label, on, hex, brightness, effect, panels? }] }`; `panels`
 * (Nanoleaf: each panel's `#rrggbb`) is drawn as a row of tiles under the swatch.
 */
export function renderLightsPage(title: string, nonce?: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
  body { font-family: system-ui, sans-serif; background: #111; color: #eee; margin: 2rem; }
  h1 { font-size: 1.25rem; font-weight: 600; }
  ul { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); gap: 1rem; }
  li { background: #1c1c1c; border-radius: .75rem; padding: .75rem; text-align: center; }
  .bulb { width: 5rem; height: 5rem; border-radius: 50%; margin: .25rem auto .5rem; border: 2px solid #333; }
  .meta { font-size: .75rem; color: #aaa; }
  .panels { display: flex; flex-wrap: wrap; justify-content: center; gap: 2px; margin: 0 auto .5rem; }
  .panel { width: .9rem; height: .9rem; border-radius: 2px; border: 1px solid #333; }
</style>
</head>
<body>
<h1>${title}</h1>
<p class="meta">Live view of the simulator's virtual lights (refreshes every 250 ms).</p>
<ul id="bulbs" aria-label="Virtual lights"></ul>
<script${nonce ? ` nonce="${nonce}"` : ''}>
  const base = location.pathname.replace(/\\/?$/, '/');
  const list = document.getElementById('bulbs');
  async function refresh() {
    try {
      const res = await fetch(base + '_control/bulbs', { cache: 'no-store' });
      const { bulbs } = await res.json();
      list.replaceChildren(...bulbs.map((b) => {
        const li = document.createElement('li');
        li.dataset.id = b.id;
        const dot = document.createElement('div');
        dot.className = 'bulb';
        dot.style.background = b.on ? b.hex : '#000';
        dot.style.boxShadow = b.on ? '0 0 2rem ' + b.hex : 'none';
        const label = document.createElement('div');
        label.textContent = b.label;
        const meta = document.createElement('div');
        meta.className = 'meta';
        meta.textContent = (b.on ? b.hex + ' · ' + Math.round(b.brightness * 100) + '%' : 'off') + (b.effect ? ' · ' + b.effect : '');
        li.append(dot);
        if (Array.isArray(b.panels)) {
          const row = document.createElement('div');
          row.className = 'panels';
          row.append(...b.panels.map((color) => {
            const tile = document.createElement('span');
            tile.className = 'panel';
            tile.style.background = b.on ? color : '#000';
            return tile;
          }));
          li.append(row);
        }
        li.append(label, meta);
        return li;
      }));
    } catch { /* the next tick retries */ }
  }
  refresh();
  setInterval(refresh, 250);
</script>
</body>
</html>
`;
}
