import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decodeEncodedWords, decodeQuotedPrintable } from './mime.js';
import { startMailCatcherServer } from './index.js';

describe('mail catcher', () => {
  let catcher: Awaited<ReturnType<typeof startMailCatcherServer>>;
  beforeAll(async () => {
    catcher = await startMailCatcherServer();
  });
  afterAll(() => catcher.close());

  test('catches what nodemailer sends over SMTP and lists it as JSON', async () => {
    const transport = nodemailer.createTransport(catcher.smtpUrl);
    await transport.sendMail({
      from: 'Flaglight <no-reply@flaglight.app>',
      to: 'fan@example.com',
      subject: 'Reset your Flaglight password — it’s quick',
      text: `Open this link: http://localhost:3000/#/reset-password?token=${'a'.repeat(60)}\nSee you on Sunday.`,
      html: '<p>Open <a href="http://localhost:3000/#/reset-password?token=abc">this link</a>. Café</p>',
    });
    const res = await fetch(`${catcher.url}/`);
    const list = (await res.json()) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      to: ['fan@example.com'],
      subject: 'Reset your Flaglight password — it’s quick',
      text: `Open this link: http://localhost:3000/#/reset-password?token=${'a'.repeat(60)}\nSee you on Sunday.`,
      html: '<p>Open <a href="http://localhost:3000/#/reset-password?token=abc">this link</a>. Café</p>',
    });
    expect(typeof list[0]?.date).toBe('string');
    const filtered = await (await fetch(`${catcher.url}/?to=FAN@example.com`)).json();
    expect(filtered).toHaveLength(1);
    expect(await (await fetch(`${catcher.url}/?to=other@example.com`)).json()).toEqual([]);
  });

  test('a catcher that is down refuses SMTP connections', async () => {
    catcher.control.setDown(true);
    const transport = nodemailer.createTransport(catcher.smtpUrl);
    await expect(
      transport.sendMail({ from: 'a@b.co', to: 'c@d.co', subject: 'x', text: 'y' }),
    ).rejects.toThrow();
    catcher.control.setDown(false);
  });

  test('decoders handle quoted-printable and encoded words', () => {
    expect(decodeQuotedPrintable('Caf=C3=A9 =\r\nau lait')).toBe('Café au lait');
    expect(decodeEncodedWords('=?UTF-8?Q?Caf=C3=A9_time?=')).toBe('Café time');
    expect(decodeEncodedWords('=?UTF-8?B?Q2Fmw6k=?=')).toBe('Café');
  });
});
