import { parseAnimData } from './nanoleaf-anim-data.js';
import { currentLook, isObject, type NanoleafLight, shownBrightness } from './nanoleaf-light.js';

export interface NanoleafEffectsResult {
  status: number;
  error?: string;
  answer?: unknown;
}

const RANGES: Record<string, [number, number]> = {
  brightness: [0, 100],
  hue: [0, 360],
  sat: [0, 100],
  ct: [1200, 6500],
};

/** `PUT /state` (reference §1 "REST"): every key checked before any is applied. */
export function applyNanoleafState(light: NanoleafLight, body: unknown): string | null {
  const now = light.now;
  if (!isObject(body) || Object.keys(body).length === 0)
    return 'the body must be a JSON object of state keys';
  const next = { ...currentLook(light) };
  let colour: 'hs' | 'ct' | null = null;
  for (const [key, raw] of Object.entries(body)) {
    if (!isObject(raw)) return `"${key}" must be an object such as {"value": …}`;
    if (key === 'on') {
      if (typeof raw.value !== 'boolean') return '"on.value" must be true or false';
      next.on = raw.value;
      continue;
    }
    const range = RANGES[key];
    if (!range) return `unknown state key "${key}"`;
    const [min, max] = range;
    const field = key as 'brightness' | 'hue' | 'sat' | 'ct';
    let value: number;
    if (raw.value !== undefined) {
      if (typeof raw.value !== 'number' || !Number.isInteger(raw.value))
        return `"${key}.value" must be a whole number`;
      if (raw.value < min || raw.value > max) return `"${key}.value" must be ${min}-${max}`;
      value = raw.value;
    } else if (raw.increment !== undefined) {
      if (typeof raw.increment !== 'number' || !Number.isInteger(raw.increment))
        return `"${key}.increment" must be a whole number`;
      value = Math.min(max, Math.max(min, next[field] + raw.increment));
    } else return `"${key}" needs "value" or "increment"`;
    if (
      raw.duration !== undefined &&
      (key !== 'brightness' || typeof raw.duration !== 'number' || raw.duration < 0)
    )
      return '"duration" is a number of seconds, for brightness only';
    if (key === 'brightness') {
      const seconds = typeof raw.duration === 'number' ? raw.duration : 0;
      next.ramp =
        seconds > 0
          ? { from: shownBrightness(light, currentLook(light)), at: now(), ms: seconds * 1000 }
          : null;
    }
    next[field] = value;
    // Brightness turns a light on, as on the device.
    if (key === 'brightness' && body.on === undefined && value > 0) next.on = true;
    if (key === 'hue' || key === 'sat') colour = 'hs';
    if (key === 'ct') colour = 'ct';
  }
  if (colour) {
    next.colorMode = colour;
    next.select = '*Solid*';
    next.effect = null;
    light.beforeTemp = null;
  }
  light.look = next;
  return null;
}

/** `PUT /effects`: `select` of a saved effect, or a `write` (reference §1 "Effect writes"). */
export function applyNanoleafEffects(light: NanoleafLight, body: unknown): NanoleafEffectsResult {
  const { now, effectsList } = light;
  if (!isObject(body)) return { status: 400, error: 'the body must be a JSON object' };
  if (typeof body.select === 'string') {
    if (!effectsList.includes(body.select)) return { status: 404, error: `no effect "${body.select}"` };
    light.look = { ...currentLook(light), colorMode: 'effect', select: body.select, effect: null, on: true };
    return { status: 204 };
  }
  const write = body.write;
  if (!isObject(write)) return { status: 400, error: 'send {"select": name} or {"write": {...}}' };
  const { command, animType } = write;
  if (command === 'requestAll')
    return { status: 200, answer: { animations: effectsList.map((animName) => ({ animName })) } };
  if (command !== 'display' && command !== 'displayTemp' && command !== 'add')
    return { status: 400, error: 'write.command must be display, displayTemp, add or requestAll' };
  if (animType !== 'static' && animType !== 'custom')
    return { status: 400, error: 'write.animType: this simulator plays static and custom effects' };
  if (!light.hasLayout) return { status: 400, error: 'this device has no panels for animData' };
  if (write.loop !== undefined && typeof write.loop !== 'boolean')
    return { status: 400, error: 'write.loop must be true or false' };
  if (write.palette !== undefined && !Array.isArray(write.palette))
    return { status: 400, error: 'write.palette must be a list' };
  const parsed = parseAnimData(write.animData, light.ledIds);
  if (!parsed.ok) return { status: 400, error: parsed.error };
  if (command === 'add') {
    if (typeof write.animName !== 'string' || write.animName === '')
      return { status: 400, error: 'add needs an animName' };
    if (!effectsList.includes(write.animName)) effectsList.push(write.animName);
    return { status: 204 };
  }
  let revertAt: number | null = null;
  if (command === 'displayTemp') {
    if (typeof write.duration !== 'number' || write.duration <= 0)
      return { status: 400, error: 'displayTemp needs a duration in seconds' };
    revertAt = now() + write.duration * 1000;
    light.beforeTemp = { ...currentLook(light) };
  } else light.beforeTemp = null;
  const loop = write.loop === true;
  light.look = {
    ...currentLook(light),
    on: true,
    colorMode: 'effect',
    select: animType === 'static' ? '*Static*' : '*Dynamic*',
    effect: {
      animType,
      loop,
      animData: String(write.animData),
      frames: parsed.frames,
      startedAt: now(),
      revertAt,
    },
  };
  return { status: 204 };
}
