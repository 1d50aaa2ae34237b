import { UPDATES_CARD_HTML, UPDATES_SCRIPT } from './status-page-updates.js';

/** The local bridge's status page (`GET /`): plain HTML, its script served from the same origin (CSP). */
export const STATUS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Flaglight Companion</title>
<style>
  :root { color-scheme: dark; --bg: #0b0d12; --card: #151922; --line: #262c38; --text: #e8ebf1; --muted: #98a1b3; --accent: #e10600; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--text); }
  header { display: flex; align-items: center; gap: 12px; padding: 16px 24px; border-bottom: 1px solid var(--line); }
  header h1 { font-size: 18px; margin: 0; }
  header .version { color: var(--muted); font-size: 13px; }
  main { max-width: 960px; margin: 0 auto; padding: 24px; display: grid; gap: 16px; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); }
  section { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 16px 18px; }
  section.wide { grid-column: 1 / -1; }
  h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 0 0 10px; }
  .big { font-size: 22px; font-weight: 600; }
  .muted { color: var(--muted); }
  .flag { display: inline-flex; align-items: center; gap: 10px; }
  .swatch { width: 18px; height: 18px; border-radius: 50%; border: 1px solid #0006; display: inline-block; flex: none; }
  .code { font: 600 28px/1.2 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; letter-spacing: .08em; }
  button { font: inherit; color: var(--text); background: #222938; border: 1px solid #343d50; border-radius: 8px; padding: 6px 12px; min-height: 44px; cursor: pointer; }
  button:hover { background: #2b3446; }
  /* A darker red than the brand's: light text on it keeps WCAG AA contrast. */
  button.primary { background: #b80500; border-color: #b80500; color: #fff; }
  .row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
  table { width: 100%; border-collapse: collapse; }
  #lights { overflow-x: auto; }
  td, th { text-align: left; padding: 6px 4px; border-bottom: 1px solid var(--line); font-size: 14px; }
  th { color: var(--muted); font-weight: 500; }
  .log { font: 12px/1.5 ui-monospace, Menlo, Consolas, monospace; max-height: 220px; overflow: auto; white-space: pre-wrap; }
  .warn { color: #ffcc4d; } .error { color: #ff6b6b; }
  input { font: inherit; background: #0f1218; color: var(--text); border: 1px solid #343d50; border-radius: 8px; padding: 6px 10px; min-height: 44px; min-width: min(220px, 100%); box-sizing: border-box; }
  a { color: #7ab8ff; }
  input[type=checkbox] { min-width: 0; min-height: 0; width: 22px; height: 22px; padding: 0; }
  label.switch { display: inline-flex; align-items: center; gap: 8px; min-height: 44px; }
</style>
</head>
<body>
<header><h1>Flaglight Companion</h1><span class="version" id="version"></span></header>
<main>
  <section id="link-card">
    <h2>Account</h2>
    <div id="link"></div>
  </section>
  <section>
    <h2>Race</h2>
    <div id="race"></div>
  </section>
  <section>
    <h2>Lights now</h2>
    <div id="flag" class="big"></div>
    <div id="delay" class="muted"></div>
    <div class="row" style="margin-top:10px">
      <button type="button" id="pause"></button>
    </div>
  </section>
  <section class="wide">
    <h2>Test a flag</h2>
    <div class="row" id="tests"></div>
    <p class="muted" id="test-result" role="status"></p>
  </section>
  <section class="wide">
    <h2>Lights on this network</h2>
    <div id="lights"></div>
    <p id="room-last" class="muted" role="status" hidden></p>
    <p id="govee-advice" class="warn" role="status" hidden></p>
    <div class="row" style="margin-top:10px">
      <button type="button" id="rescan">Search again</button>
    </div>
  </section>
  <section class="wide">
    <h2>Philips Hue bridge</h2>
    <div id="hue"></div>
    <div class="row" style="margin-top:10px">
      <label for="hue-url" class="muted">Bridge address</label>
      <input id="hue-url" placeholder="https://192.168.1.20 (optional)">
      <button type="button" id="pair">Pair a Hue bridge</button>
    </div>
    <p class="muted">Press the round link button on top of the bridge, then click Pair within 30 seconds.</p>
    <p id="pair-result" role="status"></p>
  </section>
  <section class="wide">
    <h2>Nanoleaf</h2>
    <div id="nanoleaf"></div>
    <div class="row" style="margin-top:10px">
      <label for="nanoleaf-address" class="muted">Controller address</label>
      <input id="nanoleaf-address" placeholder="192.168.1.30 (optional)">
      <button type="button" id="nanoleaf-pair">Pair a Nanoleaf controller</button>
    </div>
    <p class="muted" id="nanoleaf-steps">Hold the power button on the Nanoleaf controller for 5–7 seconds until the lights flash, then click Pair. The companion waits up to 60 seconds; if the time runs out, hold the button again and click Pair to retry.</p>
    <p id="nanoleaf-result" role="status"></p>
  </section>
  <section class="wide">
    <h2>Home Assistant</h2>
    <div id="ha"></div>
    <form id="ha-form" class="row" style="margin-top:10px" autocomplete="off" hidden>
      <label for="ha-token" class="muted">Long-lived access token</label>
      <input id="ha-token" type="password" autocomplete="off" spellcheck="false" placeholder="Home Assistant: your profile → Security → Create token">
      <button type="submit" class="primary">Save token</button>
    </form>
    <div class="row" id="ha-saved" style="margin-top:10px" hidden><span>Token saved.</span><button type="button" id="ha-forget">Forget</button></div>
    <p id="ha-result" role="status"></p>
  </section>
${UPDATES_CARD_HTML}  <section class="wide">
    <h2>Recent log</h2>
    <div class="log" id="log"></div>
  </section>
</main>
<script src="/status.js"></script>
</body>
</html>
`;

export const STATUS_PAGE_SCRIPT = `'use strict';
const FLAGS = [['green', 'Green'], ['yellow', 'Yellow'], ['red', 'Red'], ['checkered', 'Chequered'], ['vsc', 'VSC'], ['vsc_ending', 'VSC ending'], ['fastest_lap', 'Fastest lap']];
const NAMES = Object.fromEntries(FLAGS);
const BRANDS = { lifx_lan: 'LIFX', hue_local: 'Hue', govee_lan: 'Govee', nanoleaf: 'Nanoleaf', home_assistant: 'Home Assistant', wled: 'WLED' };
const STREAM = { connecting: 'Connecting to the server…', following: 'Following the live race', polling: 'Following (checking every few seconds)', waiting: 'Waiting for the next live session', reconnecting: 'Reconnecting…', refused: 'Not following', unlinked: 'Not linked', stopped: 'Stopped' };
const $ = (id) => document.getElementById(id);
const text = (el, value) => { el.textContent = value; return el; };
const el = (tag, props, children) => { const node = document.createElement(tag); Object.assign(node, props || {}); (children || []).forEach((c) => node.append(c)); return node; };
// Names and messages from devices, Home Assistant or the server: isolated, so whatever their
// direction they cannot reorder the text around them (the JSON has them cleaned already).
const iso = (value) => el('bdi', { textContent: value == null ? '' : String(value) });
let paused = false;

async function post(path, body) {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || 'Request failed');
  return data;
}

function render(s) {
  text($('version'), 'v' + s.version + ' · ' + s.platform);
  const link = $('link');
  link.replaceChildren();
  if (s.linked) {
    link.append(el('div', { className: 'big', textContent: 'Linked' }), el('div', { className: 'muted' }, [...(s.device ? [iso(s.device.name), ' · '] : []), s.server]));
  } else if (s.userCode) {
    link.append(
      el('div', { textContent: 'Open this page and confirm the code:' }),
      el('p', {}, [el('a', { href: s.verificationUriComplete || s.verificationUri, target: '_blank', rel: 'noopener', textContent: s.verificationUri })]),
      el('div', { className: 'code', textContent: s.userCode }),
    );
  } else {
    link.append(el('div', { className: 'muted', textContent: 'Asking ' + s.server + ' for a link code…' }));
  }
  const stream = s.stream || {};
  $('race').replaceChildren(
    el('div', { className: 'big', textContent: s.f1Live && s.f1Live.state === 'following' ? 'Following the live race' : STREAM[stream.state] || stream.state || '' }),
    el('div', { className: 'muted' }, [stream.message ? iso(stream.message) : (s.session ? 'Session ' + s.session.sessionKey : '')]),
    ...(s.sessionLights && s.sessionLights.line ? [el('div', { id: 'session-filter', textContent: s.sessionLights.line })] : []),
    el('div', { className: s.f1Live && s.f1Live.source !== 'Flaglight server' ? 'warn' : 'muted', textContent: 'Source: ' + (s.source || 'Flaglight server') }),
    ...(s.f1Live && s.f1Live.message ? [el('div', { className: 'warn' }, [iso(s.f1Live.message)])] : []),
    ...(s.mqtt ? [el('div', { className: s.mqtt.state === 'connected' ? 'muted' : 'warn', textContent: s.mqtt.state === 'connected' ? 'MQTT: publishing to ' + s.mqtt.broker + ' under ' + s.mqtt.topic + '/' : 'MQTT: ' + (s.mqtt.message || s.mqtt.state) })] : []),
  );
  const flag = s.flag;
  // Paused, the lights keep their look: the race's flag is said as the race's, not as the lights'.
  $('flag').replaceChildren(
    s.paused ? text(el('span', { className: 'warn' }), 'Paused: the lights keep their look' + (flag ? ' (race: ' + (NAMES[flag.state] || flag.state) + ')' : '')) :
    flag ? el('span', { className: 'flag' }, [el('span', { className: 'swatch', style: 'background:' + (flag.css || '#333') }), NAMES[flag.state] || flag.state]) : text(el('span', { className: 'muted' }), 'No flag yet'));
  text($('delay'), 'Broadcast delay ' + (s.delayMs / 1000).toFixed(1) + ' s' + (s.pending && s.pending.length ? ' · next: ' + s.pending.map((p) => (NAMES[p.state] || p.state) + ' in ' + Math.max(0, Math.round((Date.parse(p.at) - Date.now()) / 1000)) + ' s').join(', ') : ''));
  paused = !!s.paused;
  text($('pause'), paused ? 'Resume lights' : 'Pause lights');
  const lights = s.lights || [];
  if (lights.length === 0) {
    $('lights').replaceChildren(el('p', { className: 'muted', textContent: 'No lights found yet. LIFX bulbs on this network are found by themselves; pair a Hue bridge or a Nanoleaf controller below.' }));
  } else {
    const unread = roomUnread(s.room);
    const rows = lights.map((l) => el('tr', {}, [
      el('td', {}, [
        el('span', { className: 'flag' }, [el('span', { className: 'swatch', style: 'background:' + (l.lastColor ? l.lastColor.css : '#333') }), iso(l.label)]),
        ...(unread.has(l.provider + ':' + l.id) ? [el('div', { className: 'warn room-unread', textContent: unread.get(l.provider + ':' + l.id) + ', so it is left as it is when the session ends.' })] : []),
      ]),
      el('td', { textContent: BRANDS[l.provider] || l.provider }),
      el('td', { textContent: l.reachable ? 'reachable' : 'not answering', className: l.reachable ? '' : 'warn' }),
      el('td', { textContent: l.driven ? 'follows the flags' : 'not selected', className: l.driven ? '' : 'muted' }),
      el('td', { textContent: l.lastColor ? l.lastColor.name : '—', className: 'muted' }),
    ]));
    $('lights').replaceChildren(el('table', {}, [el('thead', {}, [el('tr', {}, ['Light', 'Brand', 'Network', 'Flags', 'Last colour'].map((h) => el('th', { textContent: h })))]), el('tbody', {}, rows)]));
  }
  const roomLast = roomLastLine(s.room, lights);
  $('room-last').hidden = !roomLast;
  $('room-last').replaceChildren(...(roomLast ? [iso(roomLast)] : []));
  // Govee devices stay silent until "LAN Control" is on in the Govee Home app: say so when a scan finds none.
  const govee = s.govee || {};
  const goveeNote = govee.error || govee.advice || '';
  $('govee-advice').hidden = !goveeNote;
  text($('govee-advice'), goveeNote);
  const hue = s.hue || { bridges: [] };
  $('hue').replaceChildren(...(hue.bridges.length ? hue.bridges.map((b) => el('div', {}, [iso(b.name || 'Hue bridge'), ' · ' + b.url + ' · ' + (b.paired ? 'paired' : 'not paired')])) : [el('div', { className: 'muted', textContent: 'No Hue bridge paired.' })]));
  if (hue.pairing) $('pair-result').replaceChildren(iso(hue.pairing));
  const nanoleaf = s.nanoleaf || { devices: [] };
  $('nanoleaf').replaceChildren(...(nanoleaf.devices.length ? nanoleaf.devices.map(nanoleafRow) : [el('div', { className: 'muted', textContent: 'No Nanoleaf controller paired.' })]));
  if (nanoleaf.steps) text($('nanoleaf-steps'), nanoleaf.steps);
  if (nanoleaf.pairing) $('nanoleaf-result').replaceChildren(iso(nanoleaf.pairing));
  renderHomeAssistant(s.homeAssistant);
  renderUpdates(s.updates);
  $('log').replaceChildren(...(s.log || []).slice().reverse().map((e) => el('div', { className: e.level === 'info' ? '' : e.level }, [e.at.slice(11, 19) + '  ', iso(e.message)])));
}

// "As it was": the lights the session's end leaves as they are (by provider:id, with why), and
// what the last give-back did, in one line.
function roomUnread(room) {
  return new Map(((room && room.unreadable) || []).map((u) => [u.provider + ':' + u.id, u.reason]));
}
function roomLastLine(room, lights) {
  const last = room && room.last;
  if (!last) return '';
  const names = new Map(lights.map((l) => [l.provider + ':' + l.id, l.label]));
  const left = last.left.map((l) => (names.get(l.light) || l.light) + ' (' + l.reason + ')');
  return 'Room given back at ' + last.at.slice(11, 19) + ': ' + last.restored + (last.restored === 1 ? ' light' : ' lights') + ' as they were' +
    (left.length ? '; left as they are: ' + left.join(', ') : '') + '.';
}

async function refresh() {
  try {
    const response = await fetch('/api/status', { cache: 'no-store' });
    render(await response.json());
  } catch {
    text($('race'), 'The companion is not answering. Is it still running?');
  }
}

for (const [state, label] of FLAGS) {
  const button = el('button', { type: 'button', textContent: label });
  button.addEventListener('click', async () => {
    try { await post('/api/test', { state }); text($('test-result'), label + ' played on the lights.'); }
    catch (error) { text($('test-result'), error.message); }
  });
  $('tests').append(button);
}
$('pause').addEventListener('click', async () => { await post('/api/pause', { paused: !paused }).catch(() => {}); refresh(); });
$('rescan').addEventListener('click', async () => { text($('rescan'), 'Searching…'); await post('/api/lights/rescan').catch(() => {}); text($('rescan'), 'Search again'); refresh(); });
$('pair').addEventListener('click', async () => {
  const url = $('hue-url').value.trim();
  text($('pair-result'), 'Waiting for the link button (up to 60 s)…');
  try { const r = await post('/api/hue/pair', url ? { url } : {}); $('pair-result').replaceChildren('Paired with ', iso(r.name), '.'); }
  catch (error) { text($('pair-result'), error.message); }
  refresh();
});
function nanoleafRow(d) {
  const row = el('div', {}, [iso(d.name || 'Nanoleaf'), ' · ' + d.address + ' · ' + (d.paired ? (d.needsPairing ? 'not answering: pair it again' : 'paired') : 'not paired') + ' ']);
  if (d.paired && d.id) {
    const forget = el('button', { type: 'button', textContent: 'Forget' });
    forget.setAttribute('aria-label', 'Forget ' + (d.name || 'Nanoleaf') + ' (' + d.address + ')');
    forget.addEventListener('click', async () => {
      forget.disabled = true;
      try { const r = await post('/api/nanoleaf/forget', { id: d.id }); $('nanoleaf-result').replaceChildren('Forgot ', iso(r.name), '. Pair it again to drive it.'); }
      catch (error) { text($('nanoleaf-result'), error.message); forget.disabled = false; }
    });
    row.append(forget);
  }
  return row;
}
$('nanoleaf-pair').addEventListener('click', async () => {
  const address = $('nanoleaf-address').value.trim();
  text($('nanoleaf-result'), 'Waiting for the power button (up to 60 s): hold it for 5–7 seconds until the lights flash…');
  try { const r = await post('/api/nanoleaf/pair', address ? { address } : {}); $('nanoleaf-result').replaceChildren('Paired with ', iso(r.name), '.'); }
  catch (error) { text($('nanoleaf-result'), error.message + ' Hold the power button again and click Pair to retry.'); }
  refresh();
});
const HA_STATES = { 'needs-token': 'needs a token', connecting: 'connecting…', connected: 'connected', unreachable: 'not answering', 'token-refused': 'token refused' };
// The token is never shown again: the page only knows whether one is saved.
function renderHomeAssistant(ha) {
  ha = ha || { state: 'off' };
  const rows = [];
  if (ha.state === 'off') rows.push(el('div', { className: 'muted', textContent: 'Not set up: start the companion with --home-assistant http://homeassistant.local:8123 (or FLAGLIGHT_HA_URL).' }));
  else {
    rows.push(el('div', { textContent: ha.url + ' · ' + (HA_STATES[ha.state] || ha.state) + (ha.state === 'connected' ? ' · ' + ha.lights + (ha.lights === 1 ? ' light' : ' lights') : '') + (ha.tokenFromEnv ? ' · token from FLAGLIGHT_HA_TOKEN' : '') }));
    if (ha.message) rows.push(el('div', { className: ha.state === 'connected' ? 'muted' : 'warn' }, [iso(ha.message)]));
    (ha.entityErrors || []).forEach((e) => rows.push(el('div', { className: 'warn' }, [iso(e.message)])));
  }
  $('ha').replaceChildren(...rows);
  $('ha-form').hidden = ha.state !== 'needs-token' && ha.state !== 'token-refused';
  $('ha-saved').hidden = !ha.tokenSaved;
}
$('ha-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = $('ha-token');
  const token = input.value.trim();
  if (!token) return;
  text($('ha-result'), 'Checking the token with Home Assistant…');
  try { await post('/api/home-assistant/token', { token }); input.value = ''; text($('ha-result'), 'Token saved.'); }
  catch (error) { text($('ha-result'), error.message); }
  refresh();
});
$('ha-forget').addEventListener('click', async () => {
  try { await post('/api/home-assistant/forget'); text($('ha-result'), 'Token forgotten.'); }
  catch (error) { text($('ha-result'), error.message); }
  refresh();
});
${UPDATES_SCRIPT}
refresh();
setInterval(refresh, 2000);
`;
