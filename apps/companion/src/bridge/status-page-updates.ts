// The status page's Updates card (decision 045): check, the automatic switch, the channel, and a
// version picked by hand (an older one asks first). Part of STATUS_PAGE_HTML and STATUS_PAGE_SCRIPT.

export const UPDATES_CARD_HTML = `  <section class="wide" id="updates-card" hidden>
    <h2>Updates</h2>
    <div id="updates"></div>
    <div class="row" style="margin-top:10px">
      <button type="button" id="update-check">Check now</button>
      <button type="button" id="update-install" class="primary" hidden>Install now</button>
      <label class="switch"><input type="checkbox" id="update-auto"> Install updates automatically</label>
    </div>
    <div class="row" style="margin-top:10px">
      <label for="update-channel">Channel</label>
      <select id="update-channel"><option value="stable">Stable</option><option value="beta">Beta (new features first)</option></select>
      <button type="button" id="update-versions">Other versions…</button>
    </div>
    <div id="update-offered"></div>
    <div id="update-confirm" role="alertdialog" style="margin-top:10px;padding:8px 12px;border:1px solid #343d50;border-radius:8px" aria-labelledby="update-confirm-text" hidden>
      <p id="update-confirm-text"></p>
      <div class="row"><button type="button" id="update-confirm-cancel">Cancel</button><button type="button" id="update-confirm-install" class="primary">Install</button></div>
    </div>
    <p id="update-result" role="status"></p>
  </section>
`;

export const UPDATES_SCRIPT = `// The manifest's notes and every message come cleaned in the JSON; shown as text, never as HTML.
function renderUpdates(u) {
  // A status without updates (an older companion's API): no card rather than an empty one.
  $('updates-card').hidden = !u;
  if (!u) return;
  const rows = [el('div', {}, ['Running version ' + (u.running || '') + (u.newest ? ' · newest version ' + u.newest : '')])];
  if (u.notes) rows.push(el('div', { className: 'muted' }, ['Release notes: ', iso(u.notes)]));
  if (u.notice) rows.push(el('div', { className: /failed/.test(u.notice) ? 'warn' : 'muted' }, [iso(u.notice)]));
  if (u.message) rows.push(el('div', { className: /refused|failed|cut off|Could not/.test(u.message) ? 'warn' : 'muted' }, [iso(u.message)]));
  $('updates').replaceChildren(...rows);
  $('update-check').disabled = !u.enabled || u.state === 'checking' || u.state === 'downloading' || u.state === 'installing';
  $('update-auto').disabled = !u.enabled;
  $('update-auto').checked = !!u.auto && !!u.enabled;
  $('update-install').hidden = !(u.enabled && u.state === 'ready' && !u.auto);
  renderOffered(u);
}
$('update-check').addEventListener('click', async () => {
  text($('update-result'), 'Checking for updates…');
  try { const r = await post('/api/updates/check'); text($('update-result'), (r.updates && r.updates.message) || ''); }
  catch (error) { text($('update-result'), error.message); }
  refresh();
});
$('update-auto').addEventListener('change', async (event) => {
  const auto = event.target.checked;
  try { await post('/api/updates/auto', { auto }); text($('update-result'), auto ? 'Updates install by themselves between sessions.' : 'Updates are downloaded and wait for Install now.'); }
  catch (error) { text($('update-result'), error.message); }
  refresh();
});
$('update-install').addEventListener('click', async () => {
  try { await post('/api/updates/install'); text($('update-result'), 'It installs when no session is followed and no flag effect plays.'); }
  catch (error) { text($('update-result'), error.message); }
  refresh();
});

// The channel, and the versions the server's index offers (each verified by the companion). An older
// one asks first; only "Install" in that question sends confirmOlder.
let lastUpdates = null;
let pendingPick = null;
function renderOffered(u) {
  lastUpdates = u;
  $('update-channel').value = u.channel || 'stable';
  $('update-channel').disabled = !u.enabled;
  $('update-versions').disabled = !u.enabled;
  const offered = u.offered || [];
  $('update-offered').replaceChildren(...offered.map((o) => el('div', { className: 'row' }, [
    iso('Version ' + o.version + (o.channel === 'beta' ? ' (beta)' : '') + ', released ' + String(o.released).slice(0, 10) + (o.older ? ', older than this one' : '')),
    el('button', { type: 'button', textContent: 'Install ' + o.version, onclick: () => pickVersion(o.version) }),
  ])));
}
function askOlder(version, running) {
  pendingPick = version;
  $('update-confirm-text').replaceChildren('Install version ', iso(version), ', older than the running ', iso(running), '?');
  $('update-confirm').hidden = false;
}
function pickVersion(version) {
  const offer = ((lastUpdates && lastUpdates.offered) || []).find((o) => o.version === version);
  if (offer && offer.older) askOlder(version, lastUpdates.running);
  else installPicked(version, false);
}
function cancelPick() {
  pendingPick = null;
  $('update-confirm').hidden = true;
  text($('update-result'), 'Nothing was installed.');
}
function confirmPick() {
  const version = pendingPick;
  pendingPick = null;
  $('update-confirm').hidden = true;
  if (version) installPicked(version, true);
}
async function installPicked(version, confirmOlder) {
  text($('update-result'), 'Downloading version ' + version + '…');
  try {
    const response = await fetch('/api/updates/install-version', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ version, confirmOlder }) });
    const data = await response.json().catch(() => ({}));
    if (response.ok) text($('update-result'), data.message || '');
    else if (data.confirm) askOlder(data.confirm.version, data.confirm.running);
    else text($('update-result'), data.error || 'Request failed');
  } catch (error) { text($('update-result'), error.message); }
  refresh();
}
$('update-confirm-cancel').addEventListener('click', cancelPick);
$('update-confirm-install').addEventListener('click', confirmPick);
$('update-channel').addEventListener('change', async (event) => {
  const channel = event.target.value;
  try { await post('/api/updates/channel', { channel }); text($('update-result'), channel === 'beta' ? 'Following beta: betas and stable releases.' : 'Following stable releases only.'); }
  catch (error) { text($('update-result'), error.message); }
  refresh();
});
$('update-versions').addEventListener('click', async () => {
  text($('update-result'), 'Asking the server for its versions…');
  try { const r = await post('/api/updates/versions'); text($('update-result'), (r.updates && r.updates.message) || ''); }
  catch (error) { text($('update-result'), error.message); }
  refresh();
});
`;
