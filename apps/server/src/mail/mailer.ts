import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../db/private-files.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * Sends e-mail over SMTP when a URL is configured (demo mode: the sims' catcher); without one,
 * each message is written to DATA_DIR/outbox as JSON and noted in the log.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: Logger;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    return {
      async send(message) {
        await transport.sendMail({ from: options.from, ...message });
      },
      close: () => transport.close(),
    };
  }
  return {
    async send(message) {
      // Reset and verification links are in these files: this user only.
      ensurePrivateDir(options.outboxDir, { tighten: true });
      const date = new Date().toISOString();
      const file = path.join(
        options.outboxDir,
        `${date.replace(/[:.]/g, '-')}-${message.to.replace(/[^\w.@-]/g, '_')}.json`,
      );
      await fs.writeFile(file, `${JSON.stringify({ from: options.from, date, ...message }, null, 2)}\n`, {
        mode: PRIVATE_FILE_MODE,
      });
      options.logger.info({ to: message.to, subject: message.subject, file }, 'e-mail written to the outbox');
    },
    close: () => undefined,
  };
}
