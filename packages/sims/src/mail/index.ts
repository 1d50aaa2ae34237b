import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { systemClock, type Clock } from '../shared/clock.js';
import { parseMail } from './mime.js';

export interface CaughtMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  date: string;
}

export interface MailCatcherOptions {
  /** SMTP port on 127.0.0.1; 0 picks a free one. */
  smtpPort?: number;
  /** Oldest messages are dropped beyond this many. */
  capacity?: number;
  now?: Clock;
}

/**
 * An SMTP catcher: a real SMTP server on 127.0.0.1 that keeps every message it receives, and an
 * HTTP plugin listing them as JSON `[{to, subject, text, html, date}]` (demo: /sims/mail/).
 */
export async function startMailCatcher(options: MailCatcherOptions = {}) {
  const now = options.now ?? systemClock;
  const capacity = options.capacity ?? 500;
  const messages: CaughtMail[] = [];
  let down = false;

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    banner: 'Flaglight mail catcher',
    logger: false,
    onConnect(_session, callback) {
      if (down) return callback(new Error('Mail catcher is down'));
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const parsed = parseMail(Buffer.concat(chunks).toString('utf8'));
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          subject: parsed.subject,
          text: parsed.text,
          html: parsed.html,
          date: new Date(now()).toISOString(),
        });
        if (messages.length > capacity) messages.shift();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(options.smtpPort ?? 0, '127.0.0.1', () => resolve());
  });
  smtp.on('error', () => undefined);
  const port = (smtp.server.address() as AddressInfo).port;

  const control = {
    messages: (): CaughtMail[] => [...messages],
    /** Messages sent to one address, newest last. */
    messagesTo: (address: string): CaughtMail[] =>
      messages.filter((m) => m.to.some((t) => t.toLowerCase() === address.toLowerCase())),
    clear() {
      messages.length = 0;
    },
    /** While down, every SMTP connection is refused (tests of a mail outage). */
    setDown(value: boolean) {
      down = value;
    },
  };

  async function plugin(app: FastifyInstance): Promise<void> {
    app.get('/', async (request) => {
      const to = (request.query as { to?: string }).to;
      return to ? control.messagesTo(to) : control.messages();
    });
    app.delete('/', async () => {
      control.clear();
      return { ok: true };
    });
  }

  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    plugin,
    control,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** The catcher with its HTTP listing on its own port (tests). */
export async function startMailCatcherServer(options: MailCatcherOptions = {}) {
  const catcher = await startMailCatcher(options);
  const app = Fastify();
  await app.register(catcher.plugin);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    ...catcher,
    url,
    async close() {
      await app.close();
      await catcher.close();
    },
  };
}
