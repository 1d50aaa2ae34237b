/** Milliseconds since the epoch. Every simulator reads time only through this, so tests need no waiting. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/** OpenF1 writes instants as `2023-06-04T14:21:01+00:00`, with a fraction only when there is one. */
export function formatOpenF1Date(ms: number): string {
  const iso = new Date(ms).toISOString();
  const [whole, fraction = '000Z'] = iso.split('.');
  const millis = fraction.slice(0, 3);
  return millis === '000' ? `${whole}+00:00` : `${whole}.${millis}000+00:00`;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms);
  });
}
