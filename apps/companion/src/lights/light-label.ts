import { DeviceLightSchema } from '@flaglight/contract';
import type { LanProvider } from './lan-provider.js';

/** The longest label the server takes (`PUT /api/device/lights`), read from the contract itself. */
export const LIGHT_LABEL_MAX = DeviceLightSchema.shape.label.maxLength ?? 80;

/** What a light is called when its own name has nothing printable left: "<Brand> <id>". */
export const LIGHT_BRANDS: Record<LanProvider, string> = {
  lifx_lan: 'LIFX',
  hue_local: 'Hue',
  govee_lan: 'Govee',
  nanoleaf: 'Nanoleaf',
  wled: 'WLED',
  home_assistant: 'Home Assistant',
};

// Every kind of white space and line break (tab, CR, LF, NEL, U+2028, no-break spaces...).
const WHITE_SPACE = /\p{White_Space}+/gu;
// Controls, format characters (bidi overrides and isolates, zero-width spaces and joiners, soft
// hyphens, BOM, tags) and lone surrogates. A zero-width joiner between two pictographs stays: it
// is what makes 👨‍👩‍👧 one emoji.
const INVISIBLE =
  /(?!(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic}))[\p{Cc}\p{Cf}\p{Cs}]/gu;
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Outside text as the companion shows it (the status page, its JSON): Unicode NFC, controls,
 * format characters (bidi overrides, zero-width characters) and lone surrogates dropped, every
 * run of white space and line breaks one space, no space at the ends. Not cut.
 */
export function cleanShownText(text: string): string {
  return text.normalize('NFC').replace(WHITE_SPACE, ' ').replace(INVISIBLE, '').replace(/ {2,}/g, ' ').trim();
}

/**
 * At most `max` UTF-16 units (what the server counts), cut between two graphemes: never inside a
 * surrogate pair, an emoji sequence or a letter with its accents. A first grapheme longer than
 * `max` on its own (a letter under hundreds of combining marks) is cut between code points.
 */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  for (const { segment } of GRAPHEMES.segment(text)) {
    if (out.length + segment.length <= max) {
      out += segment;
      continue;
    }
    if (out === '') {
      for (const point of segment) {
        if (out.length + point.length > max) break;
        out += point;
      }
    }
    break;
  }
  return out.trimEnd();
}

/**
 * A light's name as the companion shows and reports it: Unicode NFC, no control or format
 * characters (a line break or a bidi override in a bulb's name cannot break a report or disguise
 * another light), white space collapsed, at most `max` characters cut at a grapheme boundary.
 * A name with nothing printable left becomes `fallback` (cleaned and cut the same way).
 */
export function normalizeLightLabel(label: string, fallback: string, max = LIGHT_LABEL_MAX): string {
  const text = cut(cleanShownText(label), max);
  return text !== '' ? text : cut(cleanShownText(fallback), max);
}

/** The fallback name of a light: its brand and id ("Nanoleaf s1924a"). */
export function fallbackLightLabel(provider: LanProvider, id: string): string {
  return `${LIGHT_BRANDS[provider]} ${id}`;
}
