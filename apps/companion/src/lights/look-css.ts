import type { LightColor } from '@flaglight/core';

/** A CSS colour for a look, for the status page's swatches. */
export function css(color: LightColor, brightness: number): string {
  if (color.off) return '#000000';
  const light = Math.round(50 * Math.max(0.15, Math.min(1, brightness)) + (1 - color.saturation) * 45);
  return `hsl(${Math.round(color.hue)} ${Math.round(color.saturation * 100)}% ${Math.min(95, light)}%)`;
}
