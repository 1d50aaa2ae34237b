import { type Clock } from './clock.js';

export interface LoggedRequest {
  method: string;
  /** Path below the simulator's prefix, e.g. `/v1/race_control`. */
  path: string;
  /** The raw query string, without `?`. */
  query: string;
  at: number;
}

/** Counts upstream calls so tests can assert "one request per interval, whatever the number of users". */
export class RequestLog {
  private entries: LoggedRequest[] = [];

  constructor(private readonly now: Clock) {}

  record(method: string, path: string, query: string): void {
    this.entries.push({ method, path, query, at: this.now() });
    if (this.entries.length > 100_000) this.entries.splice(0, 50_000);
  }

  /** Number of requests, all paths or one path, optionally since an instant (ms). */
  count(path?: string, since?: number): number {
    return this.entries.filter(
      (e) => (path === undefined || e.path === path) && (since === undefined || e.at >= since),
    ).length;
  }

  counts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const e of this.entries) out[e.path] = (out[e.path] ?? 0) + 1;
    return out;
  }

  list(): LoggedRequest[] {
    return [...this.entries];
  }

  reset(): void {
    this.entries = [];
  }
}

/** Splits a raw URL into its path below `prefix` and its raw query string. */
export function splitUrl(url: string, prefix: string): { path: string; query: string } {
  const q = url.indexOf('?');
  const fullPath = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q + 1);
  const path = prefix && fullPath.startsWith(prefix) ? fullPath.slice(prefix.length) || '/' : fullPath;
  return { path, query };
}
