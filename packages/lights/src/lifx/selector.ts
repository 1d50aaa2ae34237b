/** LIFX combines at most 25 selectors with commas (reference §2.2). */
export const LIFX_MAX_SELECTOR_PARTS = 25;

const BARE_ID = /^[A-Za-z0-9_-]+$/;

/**
 * SPEC §7 selector forms: a comma-separated id list, an 'id:'-prefixed id, or a bare id; anything
 * else means all lights. An array is read as an id list. Returns the ids (empty = all).
 */
export function parseDeviceIds(input: string | readonly string[] | null | undefined): string[] {
  const parts = typeof input === 'string' ? input.split(',') : (input ?? []);
  const ids: string[] = [];
  for (const raw of parts) {
    const part = raw.trim();
    const id = part.startsWith('id:') ? part.slice(3) : part;
    if (id === '' || id === 'all' || !BARE_ID.test(id)) return [];
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** One LIFX selector per group of at most 25 ids (`id:a,id:b,…`); `['all']` when no id is given. */
export function toLifxSelectors(input: string | readonly string[] | null | undefined): string[] {
  const ids = parseDeviceIds(input);
  if (ids.length === 0) return ['all'];
  const selectors: string[] = [];
  for (let i = 0; i < ids.length; i += LIFX_MAX_SELECTOR_PARTS)
    selectors.push(
      ids
        .slice(i, i + LIFX_MAX_SELECTOR_PARTS)
        .map((id) => `id:${id}`)
        .join(','),
    );
  return selectors;
}
