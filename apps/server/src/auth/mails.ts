// The account e-mails (address confirmation, password reset), and how they leave.
import type { Logger } from 'pino';
import type { Mailer, MailMessage } from '../mail/mailer.js';

/**
 * Sent in the background, after the answer has left: no answer waits for the mail server, and
 * none carries the mailer's own work (building the message, opening the connection), which
 * would tell by its timing that an account exists.
 */
export function sendInBackground(
  deps: { mailer: Mailer; logger: Logger },
  message: MailMessage,
  what: string,
): void {
  setImmediate(() => {
    deps.mailer
      .send(message)
      .catch((error: unknown) => deps.logger.error({ err: error, to: message.to }, `${what} e-mail failed`));
  });
}

export function verificationMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Confirm your Flaglight e-mail address',
    text: [
      'Welcome to Flaglight!',
      '',
      `Open this link within 48 hours, signed in to the Flaglight account you created with this address, to confirm that it is yours:\n${link}`,
      '',
      'If you did not create a Flaglight account, someone typed your address. Opening the link does nothing for their account: it confirms only when opened signed in to that account.',
      'To take the account over, use "Forgot your password?" on the sign-in page; or ignore this e-mail.',
    ].join('\n'),
    html: `<p>Welcome to Flaglight!</p><p><a href="${link}">Confirm your e-mail address</a>, signed in to the Flaglight account you created with this address (the link works for 48 hours).</p><p>If you did not create a Flaglight account, someone typed your address. Opening the link does nothing for their account: it confirms only when opened signed in to that account. To take the account over, use "Forgot your password?" on the sign-in page; or ignore this e-mail.</p>`,
  };
}

export function passwordResetMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Reset your Flaglight password',
    text: [
      'Someone (hopefully you) asked to reset the password of your Flaglight account.',
      '',
      `Open this link within one hour to choose a new password:\n${link}`,
      '',
      'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ].join('\n'),
    html: `<p>Someone (hopefully you) asked to reset the password of your Flaglight account.</p><p><a href="${link}">Choose a new password</a> (the link works for one hour).</p><p>If you did not ask for this, ignore this e-mail: your password stays as it is.</p>`,
  };
}
