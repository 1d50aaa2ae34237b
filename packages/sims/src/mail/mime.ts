/**
 * Just enough MIME to read what nodemailer sends: headers (with RFC 2047 encoded words),
 * multipart bodies, quoted-printable and base64 parts. The catcher uses it to show caught mail.
 */

export interface ParsedMail {
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
}

function splitHeadersAndBody(raw: string): { head: string; body: string } {
  const index = raw.search(/\r?\n\r?\n/);
  if (index === -1) return { head: raw, body: '' };
  const separator = /\r?\n\r?\n/.exec(raw.slice(index))?.[0] ?? '\n\n';
  return { head: raw.slice(0, index), body: raw.slice(index + separator.length) };
}

function parseHeaders(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

function decodeBytes(bytes: number[], charset: string): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(new Uint8Array(bytes));
  } catch {
    return new TextDecoder('utf-8').decode(new Uint8Array(bytes));
  }
}

export function decodeQuotedPrintable(input: string, charset = 'utf-8'): string {
  const text = input.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const hex = text.slice(i + 1, i + 3);
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      for (const b of new TextEncoder().encode(ch)) bytes.push(b);
    }
  }
  return decodeBytes(bytes, charset);
}

function decodeBase64(input: string, charset = 'utf-8'): string {
  return decodeBytes([...Buffer.from(input.replace(/\s+/g, ''), 'base64')], charset);
}

/** Decodes RFC 2047 encoded words such as =?UTF-8?Q?Reset_your_password?=. */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B'
        ? decodeBase64(data, charset)
        : decodeQuotedPrintable(data.replace(/_/g, ' '), charset),
    );
}

function param(header: string, name: string): string | undefined {
  const match = new RegExp(`${name}="?([^";]+)"?`, 'i').exec(header);
  return match?.[1];
}

function decodePart(headers: Record<string, string>, body: string): string {
  const charset = param(headers['content-type'] ?? '', 'charset') ?? 'utf-8';
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const decoded =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body, charset)
      : encoding === 'base64'
        ? decodeBase64(body, charset)
        : body;
  return decoded.replace(/\r\n/g, '\n');
}

function collect(headers: Record<string, string>, body: string, out: { text: string; html: string }): void {
  const type = (headers['content-type'] ?? 'text/plain').toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = param(headers['content-type'] ?? '', 'boundary');
    if (!boundary) return;
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break;
      const { head, body: partBody } = splitHeadersAndBody(part.replace(/^\r?\n/, ''));
      collect(parseHeaders(head), partBody.replace(/\r?\n$/, ''), out);
    }
    return;
  }
  if (type.startsWith('text/html') && !out.html) out.html = decodePart(headers, body);
  else if (type.startsWith('text/plain') && !out.text) out.text = decodePart(headers, body);
}

export function parseMail(raw: string): ParsedMail {
  const { head, body } = splitHeadersAndBody(raw);
  const headers = parseHeaders(head);
  const out = { text: '', html: '' };
  collect(headers, body, out);
  return {
    headers,
    subject: decodeEncodedWords(headers.subject ?? ''),
    text: out.text.trimEnd(),
    html: out.html.trimEnd(),
  };
}
