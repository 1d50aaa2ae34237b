// One GET for the updater, with node:http(s) rather than fetch. Node's fetch (undici) turns on TCP
// keep-alive on a socket that is still connecting; wine's sockets refuse that ("connect UNKNOWN"),
// and the Windows update path is tested under wine. Redirects are not followed: the manifest and
// the files it names are fetched at exactly their addresses.
import http from 'node:http';
import https from 'node:https';

/** The answer's head; its body is read from the message (and must be read or destroyed). */
export function httpGet(
  url: string,
  options: { headers?: Record<string, string>; signal: AbortSignal },
): Promise<http.IncomingMessage> {
  const client = new URL(url).protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, { headers: options.headers ?? {}, signal: options.signal }, resolve);
    request.once('error', reject);
  });
}

/** The whole body as text, or null past `limit` bytes (the rest is not read). */
export async function readText(response: http.IncomingMessage, limit: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      response.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
