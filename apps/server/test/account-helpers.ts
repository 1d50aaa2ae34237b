import type { TestApp } from './helper.js';

export const VERIFY_SUBJECT = 'Confirm your Flaglight e-mail address';
export const RESET_SUBJECT = 'Reset your Flaglight password';

/** The newest e-mail with this subject the demo catcher got for an address (mail goes out in the background). */
export async function waitForMail(
  t: TestApp,
  to: string,
  subject: string,
  { after = 0 }: { after?: number } = {},
): Promise<{ subject: string; text: string }> {
  for (let i = 0; i < 250; i++) {
    const mails = t.context.sims!.mail.control.messagesTo(to).filter((m) => m.subject === subject);
    const mail = mails.length > after ? mails.at(-1) : undefined;
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no "${subject}" e-mail (#${after + 1}) to ${to}`);
}

/** The token of the app link (`/#/reset-password?token=…`, `/#/verify-email?token=…`) in a mail. */
export function linkToken(mail: { text: string }, page: 'reset-password' | 'verify-email'): string {
  const token = new RegExp(`#/${page}\\?token=([\\w-]+)`).exec(mail.text)?.[1];
  if (!token) throw new Error(`no ${page} link in: ${mail.text}`);
  return token;
}

/**
 * Proves an address the way its owner does: opens the link of the newest confirmation e-mail,
 * signed in to the account (`bearer`, its session token) that signed up with it.
 */
export async function verifyEmailByMail(t: TestApp, email: string, bearer: string): Promise<void> {
  const token = linkToken(await waitForMail(t, email, VERIFY_SUBJECT), 'verify-email');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/verify-email',
    payload: { token },
    headers: { authorization: `Bearer ${bearer}` },
  });
  if (res.statusCode !== 200) throw new Error(`verification failed: ${res.body}`);
}
