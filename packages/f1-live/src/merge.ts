import { inflateRawSync } from 'node:zlib';

/** A topic's state: JSON as the feed sends it (objects, lists, scalars). */
export type FeedValue = null | boolean | number | string | FeedValue[] | { [key: string]: FeedValue };
export type FeedObject = { [key: string]: FeedValue };

const KEYFRAME = '_kf';
const DELETED = '_deleted';

export function isFeedObject(value: unknown): value is FeedObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIndexKey(key: string): boolean {
  return /^(0|[1-9]\d*)$/.test(key);
}

/** A copy of a snapshot value without the `_kf` keyframe markers (reference §3). */
export function stripKeyframes(value: unknown): FeedValue {
  if (Array.isArray(value)) return value.map(stripKeyframes);
  if (isFeedObject(value)) {
    const out: FeedObject = {};
    for (const [key, item] of Object.entries(value)) {
      if (key !== KEYFRAME) out[key] = stripKeyframes(item);
    }
    return out;
  }
  if (value === undefined) return null;
  return value as FeedValue;
}

function deletedKeys(delta: FeedObject): string[] {
  const raw = delta[DELETED];
  if (!Array.isArray(raw)) return [];
  return raw.map((key) => String(key as string | number));
}

/**
 * Merges one `feed` update into a topic's state (reference §5) and returns the new state; the
 * inputs are not modified. Object into object: key by key, missing keys stay. Object with
 * decimal keys into a list: sets (or merges into) `list[i]`, appending at `i == length`.
 * Anything else replaces. `_kf` is dropped; `_deleted: ["27"]` removes those keys (list items).
 */
export function applyDelta(state: FeedValue | undefined, delta: unknown): FeedValue {
  if (Array.isArray(state) && isFeedObject(delta)) {
    const keys = Object.keys(delta).filter((key) => key !== KEYFRAME && key !== DELETED);
    if (keys.every(isIndexKey)) {
      const out = [...state];
      const indices = keys.map(Number).sort((a, b) => a - b);
      for (const i of indices) {
        const patch = delta[String(i)];
        if (i < out.length) out[i] = applyDelta(out[i], patch);
        else if (i === out.length) out.push(applyDelta(undefined, patch));
        else out[i] = applyDelta(undefined, patch); // a gap: keep the index, as the feed does
      }
      const removed = new Set(deletedKeys(delta).filter(isIndexKey).map(Number));
      return removed.size === 0 ? fillHoles(out) : fillHoles(out).filter((_, i) => !removed.has(i));
    }
  }
  if (isFeedObject(state) && isFeedObject(delta)) {
    const out: FeedObject = { ...state };
    for (const key of deletedKeys(delta)) delete out[key];
    for (const [key, patch] of Object.entries(delta)) {
      if (key === KEYFRAME || key === DELETED) continue;
      out[key] = applyDelta(state[key], patch);
    }
    return out;
  }
  if (isFeedObject(delta)) {
    const out: FeedObject = {};
    for (const [key, patch] of Object.entries(delta)) {
      if (key === KEYFRAME || key === DELETED) continue;
      out[key] = applyDelta(undefined, patch);
    }
    return out;
  }
  return stripKeyframes(delta);
}

function fillHoles(list: FeedValue[]): FeedValue[] {
  return Array.from(list, (item) => (item === undefined ? null : item));
}

/** `CarData.z` → true: the topic's data is base64 of raw DEFLATE (reference §4). */
export function isDeflatedTopic(topic: string): boolean {
  return topic.endsWith('.z');
}

/**
 * Decodes a `.z` topic's data: a JSON string holding base64 of raw DEFLATE (no zlib header).
 * Surrounding quotes and a UTF-8 BOM are tolerated. Throws on anything undecodable.
 */
export function inflateTopicData(data: unknown): FeedValue {
  if (typeof data !== 'string') throw new TypeError('a .z topic carries a base64 string');
  const base64 = data.replace(/^\uFEFF/, '').replace(/^"|"$/g, '');
  const text = inflateRawSync(Buffer.from(base64, 'base64'))
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  return JSON.parse(text) as FeedValue;
}
