import { REQUEST_MAX_RETRIES, REQUEST_TIMEOUT_MS, SeasonResponseSchema, type Race } from '@flaglight/core';

export type JolpicaResult = { ok: true; races: Race[]; season: string } | { ok: false; error: string };

/**
 * The one speaker of Jolpica (reference §5.1). SPEC §7: 10 s time-out, up to 3 retries on a
 * time-out (other failures answer at once: retrying a 429 would only deepen the throttle).
 */
export function createJolpicaClient(options: {
  baseUrl: string;
  timeoutMs?: number;
  retries?: number;
  fetch?: typeof fetch;
}) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const retries = options.retries ?? REQUEST_MAX_RETRIES;
  const doFetch = options.fetch ?? fetch;

  async function once(url: string): Promise<JolpicaResult | 'timeout'> {
    let res: Response;
    try {
      res = await doFetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
        return 'timeout';
      return { ok: false, error: 'Jolpica is unreachable' };
    }
    if (!res.ok) return { ok: false, error: `Jolpica answered ${res.status}` };
    let body: unknown;
    try {
      body = JSON.parse(await res.text());
    } catch {
      return { ok: false, error: 'Jolpica sent invalid JSON' };
    }
    const parsed = SeasonResponseSchema.safeParse(body);
    if (!parsed.success) return { ok: false, error: 'Jolpica sent an unexpected schedule' };
    const table = parsed.data.MRData.RaceTable;
    return { ok: true, races: table.Races, season: table.season ?? table.Races[0]?.season ?? '' };
  }

  return {
    /** The current season's races. */
    async currentSeason(): Promise<JolpicaResult> {
      const url = `${baseUrl}/ergast/f1/current.json?limit=100`;
      for (let attempt = 0; attempt <= retries; attempt += 1) {
        const result = await once(url);
        if (result !== 'timeout') return result;
      }
      return { ok: false, error: 'Jolpica timed out' };
    },
  };
}

export type JolpicaClient = ReturnType<typeof createJolpicaClient>;
