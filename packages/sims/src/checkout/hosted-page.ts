import { type CheckoutSession } from './types.js';

export const CHECKOUT_NOT_FOUND_PAGE = '<!doctype html><title>Not found</title><h1>Checkout not found</h1>';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The hosted page a person pays on: the amount, and Pay and Cancel while the session is open. */
export function renderCheckoutPage(session: CheckoutSession, pagePath: string): string {
  const amount = (session.amount_total / 100).toFixed(2);
  const symbol = session.currency === 'aud' ? 'A$' : `${session.currency.toUpperCase()} `;
  const methods = session.payment_method_types.length ? session.payment_method_types.join(', ') : 'card';
  const open = session.status === 'open';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout simulator</title>
<style>body{font-family:system-ui,sans-serif;background:#0b0d12;color:#f2f4f8;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#151922;border:1px solid #2a3140;border-radius:12px;padding:2rem;max-width:26rem;width:calc(100% - 2rem)}
h1{font-size:1.25rem;margin:0 0 .25rem}p{color:#b8c0cc}.amount{font-size:2rem;font-weight:700;color:#fff;margin:.5rem 0 1rem}
button{font:inherit;border-radius:8px;padding:.75rem 1rem;border:0;cursor:pointer;width:100%;margin-top:.5rem}
.pay{background:#22c55e;color:#04130a;font-weight:700}.cancel{background:transparent;color:#f2f4f8;border:1px solid #3a4354}
button:focus-visible{outline:3px solid #facc15;outline-offset:2px}</style></head>
<body><main><p>Checkout simulator · no real money moves</p><h1>${escapeHtml(session.line_items_description)}</h1>
<div class="amount">${symbol}${amount}</div><p>One-time payment. Methods: ${escapeHtml(methods)}.</p>
${
  open
    ? `<form method="post" action="${pagePath}/pay/${session.id}/complete"><button class="pay" type="submit">Pay ${symbol}${amount}</button></form>
<form method="post" action="${pagePath}/pay/${session.id}/cancel"><button class="cancel" type="submit">Cancel</button></form>`
    : `<p>This checkout is ${session.status}.</p>`
}
</main></body></html>`;
}
