/** Which packets a bulb received belong to which flag change: the figures are computed from this. */
import { createLightProgram } from '@flaglight/core';
import { EARLY_SLACK_MS, SET_TYPES } from './config.js';
import { type Arrival } from './event-stream.js';
import { type Received } from './server-api.js';

export interface Change {
  arrival: Arrival;
  targetMs: number;
  /** Per bulb: the first packet of the change's look, or null when none came. */
  first: Map<string, number | null>;
  /** Per bulb: commands (set messages) from the change's window to the next one's. */
  commands: Map<string, Map<string, number>>;
}

export interface PhaseResult {
  delayMs: number;
  changes: Change[];
  repeats: number;
  otherPackets: number;
  bulbs: number;
  spanMs: number;
  truncated: boolean;
}

/** The look of a flag's first step as LIFX HSBK: what its first packet (a SetColor) carries. */
function firstLook(state: string): { hue: number; saturation: number } | null {
  const program = createLightProgram(state);
  if (!program.ok) return null;
  const step = program.program.steps[0];
  if (!step || step.kind === 'restore' || step.color.off) return null;
  return { hue: Math.round(((step.color.hue % 360) / 360) * 65535), saturation: step.color.saturation };
}

function isLook(packet: Received, look: { hue: number; saturation: number }): boolean {
  const color = packet.message.color;
  if (packet.type !== 'LightSetColor' || !color || color.brightness < 60_000) return false;
  if (look.saturation === 0) return color.saturation < 1_000;
  const distance = Math.abs(color.hue - look.hue);
  return color.saturation > 30_000 && Math.min(distance, 65_536 - distance) < 800;
}

export function attribute(
  arrivals: Arrival[],
  previousState: string | null,
  delayMs: number,
  logs: Map<string, Received[]>,
  endMs: number,
): { changes: Change[]; repeats: number } {
  const changes: Change[] = [];
  let repeats = 0;
  let previous = previousState;
  for (const arrival of arrivals) {
    if (arrival.snapshot || arrival.state === previous) {
      if (!arrival.snapshot) repeats += 1;
      previous = arrival.state;
      continue;
    }
    previous = arrival.state;
    changes.push({ arrival, targetMs: arrival.arrivedAt + delayMs, first: new Map(), commands: new Map() });
  }
  changes.forEach((change, i) => {
    const from = change.targetMs - EARLY_SLACK_MS;
    const next = changes[i + 1];
    const to = next ? next.targetMs - EARLY_SLACK_MS : endMs;
    const look = firstLook(change.arrival.state);
    for (const [id, log] of logs) {
      const inWindow = log.filter((p) => p.at >= from && p.at < to);
      const first = look
        ? inWindow.find((p) => isLook(p, look))
        : inWindow.find((p) => SET_TYPES.has(p.type));
      change.first.set(id, first ? first.at : null);
      const counts = new Map<string, number>();
      for (const p of inWindow) if (SET_TYPES.has(p.type)) counts.set(p.type, (counts.get(p.type) ?? 0) + 1);
      change.commands.set(id, counts);
    }
  });
  return { changes, repeats };
}
