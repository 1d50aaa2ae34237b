import { LIFETIME_PRICE_AUD } from '@flaglight/core';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer.js';

/** E-mails the lifetime receipt with its licence key; a failed send is logged, never thrown. */
export function sendLifetimeReceipt(
  deps: { mailer: Mailer; logger: Logger },
  receipt: { to: string; licenceKey: string; sessionId: string },
): void {
  const { to, licenceKey: key, sessionId } = receipt;
  deps.mailer
    .send({
      to,
      subject: 'Your Flaglight lifetime access receipt',
      text: `Thank you! Your payment of A$${LIFETIME_PRICE_AUD}.00 (one-time) is complete and your account now has lifetime access.\n\nLicence key: ${key}\nReceipt reference: ${sessionId}\n\nQuestions? Reply to this e-mail within 30 days.`,
      html: `<p>Thank you! Your payment of <strong>A$${LIFETIME_PRICE_AUD}.00</strong> (one-time) is complete and your account now has lifetime access.</p><p>Licence key: <code>${key}</code><br>Receipt reference: ${sessionId}</p>`,
    })
    .catch((error: unknown) => deps.logger.error({ err: error }, 'receipt e-mail failed'));
}
