/** animData's T counts in 100 ms. */
const FRAME_UNIT_MS = 100;

/** A frame `[r, g, b, t]`, t in 100 ms. */
export type NanoleafFrame = [number, number, number, number];
/** Per listed panel id, its frames in order. */
export type NanoleafFrames = Record<number, NanoleafFrame[]>;

/**
 * Parses animData strictly (reference §1 "Effect writes"): `numPanels`, then per panel `panelId
 * numFrames` and per frame `R G B W T`, integers only, colours 0–255, every panel id one of this
 * device's LED panels, nothing left over. Returns the frames or the reason it is refused.
 */
export function parseAnimData(
  text: unknown,
  ledIds: ReadonlySet<number>,
): { ok: true; frames: NanoleafFrames } | { ok: false; error: string } {
  if (typeof text !== 'string' || text.trim() === '')
    return { ok: false, error: 'animData must be a string' };
  const tokens = text.trim().split(/\s+/);
  if (!tokens.every((t) => /^\d+$/.test(t))) return { ok: false, error: 'animData holds only whole numbers' };
  const numbers = tokens.map(Number);
  let at = 0;
  const next = () => numbers[at++];
  const count = next()!;
  if (count < 1) return { ok: false, error: 'animData lists no panel' };
  const frames: NanoleafFrames = {};
  for (let p = 0; p < count; p += 1) {
    const panelId = next();
    const frameCount = next();
    if (panelId === undefined || frameCount === undefined) return { ok: false, error: 'animData ends early' };
    if (!ledIds.has(panelId))
      return { ok: false, error: `animData names panel ${panelId}, which has no LEDs here` };
    if (frameCount < 1) return { ok: false, error: `panel ${panelId} has no frame` };
    const list: NanoleafFrame[] = [];
    for (let f = 0; f < frameCount; f += 1) {
      const [r, g, b, w, t] = [next(), next(), next(), next(), next()];
      if (t === undefined || w === undefined || r === undefined || g === undefined || b === undefined)
        return { ok: false, error: 'animData ends early' };
      if ([r, g, b, w].some((c) => c > 255)) return { ok: false, error: 'animData colours are 0-255' };
      list.push([r, g, b, t]);
    }
    frames[panelId] = list;
  }
  if (at !== numbers.length) return { ok: false, error: 'animData has numbers left over' };
  return { ok: true, frames };
}

/** A panel's frame at `elapsedMs` into the effect (looping or holding the last frame). */
export function frameAt(frames: NanoleafFrame[], elapsedMs: number, loop: boolean): NanoleafFrame {
  const total = frames.reduce((sum, f) => sum + f[3] * FRAME_UNIT_MS, 0);
  if (total <= 0) return frames.at(-1)!;
  if (!loop && elapsedMs >= total) return frames.at(-1)!;
  let t = loop ? elapsedMs % total : elapsedMs;
  for (const frame of frames) {
    t -= frame[3] * FRAME_UNIT_MS;
    if (t < 0) return frame;
  }
  return frames.at(-1)!;
}
