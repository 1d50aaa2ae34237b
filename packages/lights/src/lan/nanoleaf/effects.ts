import { hsbToRgb, type LightColor, type LightStep } from '@flaglight/core';
import { isOff, type LightStateCommand } from '../../driver.js';

// What the Nanoleaf driver sends for a look or a strobe (reference §1 "REST", "Effect writes", §4).

/** animData's T counts in 100 ms: the shortest fade, so the fastest strobe is 0.2 s on/off. */
export const NANOLEAF_FRAME_UNIT_MS = 100;
/** shapeTypes that carry LEDs (reference §1 "Layout"); controllers and connectors have none. */
export const NANOLEAF_LED_SHAPE_TYPES: ReadonlySet<number> = new Set([0, 2, 3, 4, 7, 8, 9, 14, 15, 17, 18]);

type Strobe = Extract<LightStep, { kind: 'strobe' }>;

export interface NanoleafPanel {
  panelId: number;
  x: number;
  y: number;
  shapeType: number;
}

/** A `PUT /state` body: one write per look, `on` last as aionanoleaf sends it (reference §1). */
export type NanoleafStateBody = Record<string, { value: number | boolean; duration?: number }>;

/**
 * The look as one `PUT /state` body (reference §4): hue 0–360, sat 0–100 (white: sat 0),
 * brightness 0–100 with its fade in whole seconds; off is `{"on":{"value":false}}` alone.
 */
export function toStateBody(state: LightStateCommand): NanoleafStateBody {
  if (isOff(state)) return { on: { value: false } };
  const seconds = Math.round(state.transitionMs / 1000);
  return {
    hue: { value: Math.round(((state.color.hue % 360) + 360) % 360) },
    sat: { value: Math.round(Math.min(1, Math.max(0, state.color.saturation)) * 100) },
    brightness: {
      value: Math.round(Math.min(1, Math.max(0, state.brightness)) * 100),
      ...(seconds > 0 ? { duration: seconds } : {}),
    },
    on: { value: true },
  };
}

/** RGB 0–255 of a colour at full value (animData; global brightness scales it on the device). */
export function toRgb(color: LightColor): [number, number, number] {
  if (color.off) return [0, 0, 0];
  const { r, g, b } = hsbToRgb({ hue: color.hue, saturation: color.saturation, brightness: 1 });
  return [r, g, b];
}

/** The panels that light up, in layout order (reference §1: `numPanels` counts controllers too). */
export function ledPanels(panels: readonly NanoleafPanel[]): NanoleafPanel[] {
  return panels.filter((panel) => NANOLEAF_LED_SHAPE_TYPES.has(panel.shapeType));
}

/**
 * Reads `panelLayout.layout` (`{numPanels, positionData:[{panelId,x,y,o,shapeType}]}`); entries
 * that are not numbers are left out. Null when the device has no layout (Essentials).
 */
export function parsePanelLayout(value: unknown): NanoleafPanel[] | null {
  const layout = (value as { layout?: { positionData?: unknown } } | null)?.layout;
  if (!layout || !Array.isArray(layout.positionData)) return null;
  const panels: NanoleafPanel[] = [];
  for (const raw of layout.positionData as unknown[]) {
    const p = raw as Record<string, unknown>;
    if ([p.panelId, p.x, p.y, p.shapeType].every((v) => typeof v === 'number' && Number.isFinite(v)))
      panels.push({
        panelId: p.panelId as number,
        x: p.x as number,
        y: p.y as number,
        shapeType: p.shapeType as number,
      });
  }
  return panels;
}

/** A white/black strobe is the chequered flag (SPEC §4): shown as a chequerboard, not a flash. */
export function isChequered(step: Strobe): boolean {
  return step.fromColor.off === true && !step.color.off && step.color.saturation <= 0;
}

/**
 * A strobe as one looping `custom` effect (reference §1 "Effect writes", §4): per LED panel two
 * frames, `color` then `fromColor`, each fading in T = half period in 100 ms units (at least 1, so
 * 0.2 s is the fastest period). Chequered: even panels white→black, odd panels black→white.
 */
export function strobeEffect(
  panels: readonly NanoleafPanel[],
  step: Strobe,
): { write: Record<string, unknown> } {
  const lit = ledPanels(panels);
  const t = Math.max(1, Math.round(step.periodMs / 2 / NANOLEAF_FRAME_UNIT_MS));
  const on = toRgb(step.color);
  const off = toRgb(step.fromColor);
  const chequered = isChequered(step);
  const parts: number[] = [lit.length];
  lit.forEach((panel, index) => {
    const [first, second] = chequered && index % 2 === 1 ? [off, on] : [on, off];
    parts.push(panel.panelId, 2, ...first, 0, t, ...second, 0, t);
  });
  return {
    write: {
      command: 'display',
      animType: 'custom',
      animData: parts.join(' '),
      loop: true,
      palette: [],
    },
  };
}
