import { request } from 'node:http';

export interface RawResponse {
  status: number;
  contentType: string;
  body: string;
}

/**
 * GET with the path sent byte for byte (fetch would percent-encode `<` and `>`), so tests can write
 * OpenF1 operators literally as real clients do.
 */
export function rawGet(
  baseUrl: string,
  pathAndQuery: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: base.hostname, port: base.port, path: pathAndQuery, method: 'GET', headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export function parseJson<T = unknown>(res: RawResponse): T {
  return JSON.parse(res.body) as T;
}
