/** One virtual LIFX bulb: its stored state plus a running waveform effect, if any. */
export interface Bulb {
  id: string;
  uuid: string;
  label: string;
  connected: boolean;
  power: 'on' | 'off';
  hue: number;
  saturation: number;
  kelvin: number;
  brightness: number;
  group: { id: string; name: string };
  location: { id: string; name: string };
  product: { name: string; identifier: string; product_id: number };
  effect: BulbEffect | null;
}

export interface Hsbk {
  hue: number;
  saturation: number;
  brightness: number;
  kelvin: number;
}

export interface BulbEffect {
  kind: 'pulse' | 'breathe';
  color: Hsbk;
  from: Hsbk;
  periodMs: number;
  cycles: number;
  persist: boolean;
  peak: number;
  startedAt: number;
}

const GROUPS = ['Living Room', 'Bedroom', 'Office', 'Kitchen'];
const LABELS = [
  'Lamp',
  'Ceiling',
  'TV Strip',
  'Desk',
  'Bedside Left',
  'Bedside Right',
  'Monitor Bar',
  'Pendant',
  'Shelf',
  'Hallway',
  'Porch',
  'Garage',
];
const PRODUCTS = [
  { name: 'LIFX Color 1000', identifier: 'lifx_color_a19', product_id: 22 },
  { name: 'LIFX A19', identifier: 'lifx_a19', product_id: 43 },
  { name: 'LIFX Z', identifier: 'lifx_z', product_id: 32 },
  { name: 'LIFX Mini Color', identifier: 'lifx_mini_color', product_id: 49 },
];

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0').slice(-width);
}

/**
 * How each bulb starts, in turn: the first as it always did (white, 80 %), then one off, one dimmed
 * orange, one blue; the next four warmer and dimmer. A room given back "as it was" shows its own mix.
 */
const INITIAL_LOOKS: Pick<Bulb, 'power' | 'hue' | 'saturation' | 'kelvin' | 'brightness'>[] = [
  { power: 'on', hue: 0, saturation: 0, kelvin: 3500, brightness: 0.8 },
  { power: 'off', hue: 200, saturation: 0.6, kelvin: 3500, brightness: 0.5 },
  { power: 'on', hue: 30, saturation: 0.7, kelvin: 3500, brightness: 0.35 },
  { power: 'on', hue: 220, saturation: 0.9, kelvin: 3500, brightness: 1 },
  { power: 'on', hue: 0, saturation: 0, kelvin: 2700, brightness: 0.6 },
  { power: 'off', hue: 0, saturation: 0, kelvin: 4000, brightness: 1 },
  { power: 'on', hue: 300, saturation: 0.5, kelvin: 3500, brightness: 0.2 },
  { power: 'on', hue: 140, saturation: 0.8, kelvin: 3500, brightness: 0.7 },
];

/** The demo's bulbs (12 by default: enough for the device search and two pages). */
export function createBulbs(count: number): Bulb[] {
  return Array.from({ length: count }, (_, i) => {
    const groupIndex = i % GROUPS.length;
    const base = LABELS[i % LABELS.length] ?? 'Bulb';
    return {
      id: `d073d5${hex(0x100a00 + i * 7, 6)}`,
      uuid: `02a5b510-2d3d-46ea-92ac-${hex(0xc4533f75c200 + i, 12)}`,
      label: i < LABELS.length ? base : `${base} ${Math.floor(i / LABELS.length) + 1}`,
      connected: true,
      ...INITIAL_LOOKS[i % INITIAL_LOOKS.length]!,
      group: { id: `06e3ec50395511e9a0757200055bf1c${groupIndex}`, name: GROUPS[groupIndex] ?? 'Home' },
      location: { id: 'f2c1aa82395411e9a0757200055bf1c0', name: 'Home' },
      product: PRODUCTS[i % PRODUCTS.length] ?? PRODUCTS[0]!,
      effect: null,
    };
  });
}

export type SelectorMatch = { ok: true; bulbs: Bulb[] } | { ok: false; status: 404 | 422; error: string };

/** Resolves a LIFX selector (reference §2.2): up to 25 comma-joined parts, `:random` suffix. */
export function matchSelector(bulbs: readonly Bulb[], selector: string): SelectorMatch {
  const parts = selector.split(',').map((p) => p.trim());
  if (parts.length > 25) return { ok: false, status: 422, error: 'selector: too many parts (maximum 25)' };
  const found = new Set<Bulb>();
  for (const raw of parts) {
    const random = raw.endsWith(':random');
    const part = random ? raw.slice(0, -':random'.length) : raw;
    const colon = part.indexOf(':');
    const kind = colon === -1 ? part : part.slice(0, colon);
    const value = colon === -1 ? '' : part.slice(colon + 1);
    let matches: Bulb[];
    switch (kind) {
      case 'all':
        matches = [...bulbs];
        break;
      case 'id':
        matches = bulbs.filter((b) => b.id === value.toLowerCase());
        break;
      case 'label':
        matches = bulbs.filter((b) => b.label === value);
        break;
      case 'group_id':
        matches = bulbs.filter((b) => b.group.id === value);
        break;
      case 'group':
        matches = bulbs.filter((b) => b.group.name === value);
        break;
      case 'location_id':
        matches = bulbs.filter((b) => b.location.id === value);
        break;
      case 'location':
        matches = bulbs.filter((b) => b.location.name === value);
        break;
      case 'scene_id':
        matches = [];
        break;
      default:
        return { ok: false, status: 422, error: `Invalid selector: ${raw}` };
    }
    if (random && matches.length > 0) matches = [matches[Math.floor(Math.random() * matches.length)]!];
    for (const b of matches) found.add(b);
  }
  if (found.size === 0)
    return { ok: false, status: 404, error: `Could not find light with selector '${selector}'.` };
  return { ok: true, bulbs: bulbs.filter((b) => found.has(b)) };
}

function mix(a: Hsbk, b: Hsbk, t: number): Hsbk {
  const dh = ((((b.hue - a.hue) % 360) + 540) % 360) - 180;
  return {
    hue: (a.hue + dh * t + 360) % 360,
    saturation: a.saturation + (b.saturation - a.saturation) * t,
    brightness: a.brightness + (b.brightness - a.brightness) * t,
    kelvin: a.kelvin + (b.kelvin - a.kelvin) * t,
  };
}

/** What the bulb shows at `now`: its state, or the waveform while an effect runs. */
export function visibleColor(bulb: Bulb, now: number): Hsbk & { on: boolean } {
  const base = {
    hue: bulb.hue,
    saturation: bulb.saturation,
    brightness: bulb.brightness,
    kelvin: bulb.kelvin,
  };
  const effect = bulb.effect;
  if (effect && effect.periodMs > 0) {
    const elapsed = now - effect.startedAt;
    const total = effect.periodMs * effect.cycles;
    if (elapsed >= 0 && elapsed < total) {
      const phase = (elapsed % effect.periodMs) / effect.periodMs;
      const shown =
        effect.kind === 'pulse'
          ? phase < effect.peak
            ? effect.from
            : effect.color
          : mix(
              effect.from,
              effect.color,
              phase < effect.peak ? phase / effect.peak : (1 - phase) / (1 - effect.peak),
            );
      return { ...shown, on: true };
    }
  }
  return { ...base, on: bulb.connected && bulb.power === 'on' };
}

/** Ends effects that have run their course (persisting the last colour where asked). */
export function settleEffect(bulb: Bulb, now: number): void {
  const effect = bulb.effect;
  if (!effect || now - effect.startedAt < effect.periodMs * effect.cycles) return;
  if (effect.persist) Object.assign(bulb, effect.color, { power: 'on' });
  bulb.effect = null;
}
