/**
 * The page the Hue OAuth popup lands on. It reports to the app window that opened it with
 * postMessage (target: the app's own origin, never '*'), then closes; opened without an opener
 * it goes to Settings with `hue_success` / `hue_error` (SPEC §4 Bridge provider connection).
 * Inline scripts are blocked by the CSP, so the page carries its data in attributes and loads
 * the fixed script below from the app's own origin.
 */

export const CALLBACK_SCRIPT_PATH = '/auth/hue/callback.js';

export const CALLBACK_SCRIPT = `(function () {
  var el = document.getElementById('hue-oauth-result');
  if (!el) return;
  var message = { type: el.getAttribute('data-type') };
  var error = el.getAttribute('data-error');
  if (error) message.error = error;
  var origin = el.getAttribute('data-origin');
  var fallback = el.getAttribute('data-fallback');
  try {
    // Reaches an app tab even when the opener reference was cut (a cross-origin page on the way).
    var channel = new BroadcastChannel('flaglight-hue-oauth');
    channel.postMessage(message);
    channel.close();
  } catch (e) {}
  var opener = null;
  try { opener = window.opener && !window.opener.closed ? window.opener : null; } catch (e) {}
  if (opener) {
    opener.postMessage(message, origin);
    window.close();
    // Some browsers refuse to close: leave the user on Settings instead of a dead end.
    setTimeout(function () { window.location.replace(fallback); }, 1000);
  } else {
    window.location.replace(fallback);
  }
})();
`;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export function renderCallbackPage(
  input: { ok: true } | { ok: false; reason: string },
  appOrigin: string,
): string {
  const fallback = input.ok
    ? '/#/settings?hue_success=true'
    : `/#/settings?hue_error=${encodeURIComponent(input.reason)}`;
  const title = input.ok ? 'Hue connected' : 'Hue connection failed';
  const text = input.ok
    ? 'Your Hue account is connected. This window closes by itself.'
    : `Hue authorization failed: ${input.reason}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Flaglight</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#0b0d12;color:#e8eaf0;font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif}
main{max-width:26rem;padding:2rem;text-align:center}
h1{font-size:1.4rem;margin:0 0 .5rem}
p{color:#aab0c0}
a{color:#f5c542}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p id="hue-oauth-result" data-type="${input.ok ? 'HUE_OAUTH_SUCCESS' : 'HUE_OAUTH_ERROR'}" data-error="${
    input.ok ? '' : escapeHtml(input.reason)
  }" data-origin="${escapeHtml(appOrigin)}" data-fallback="${escapeHtml(fallback)}">${escapeHtml(text)}</p>
<p><a href="${escapeHtml(fallback)}">Back to Flaglight settings</a></p>
</main>
<script src="${CALLBACK_SCRIPT_PATH}"></script>
</body>
</html>
`;
}
