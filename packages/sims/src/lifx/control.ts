import { type Bulb, createBulbs, settleEffect, visibleColor } from './bulbs.js';
import { hsbkToHex } from './colors.js';
import { type LifxFailure, type LifxLoggedRequest, type LifxSettings, type LifxState } from './state.js';

export interface LifxBulbView {
  id: string;
  label: string;
  connected: boolean;
  power: 'on' | 'off';
  color: { hue: number; saturation: number; kelvin: number };
  brightness: number;
  group: string;
  /** What it shows now (the waveform while an effect runs). */
  on: boolean;
  hex: string;
  /** `pulse`, `breathe` or null. */
  effect: string | null;
}

export interface LifxSimControl {
  bulbs(): LifxBulbView[];
  bulb(id: string): LifxBulbView | undefined;
  setConnected(id: string, connected: boolean): void;
  /** The next requests to `/v1/*` fail (or hang) this way. */
  failNext(failure: LifxFailure): void;
  setRateLimit(limit: { max: number; windowMs: number }): void;
  /** The token stops working, as when its owner deletes it at cloud.lifx.com: 401 from then on. */
  revokeToken(token: string): boolean;
  requests(): LifxLoggedRequest[];
  resetRequests(): void;
  /** Bulbs back to their first state, revoked tokens back, log and failures cleared, rate budget refilled. */
  reset(): void;
}

/** The in-process handle on the simulator's state (tests, demo mode); `/_control/*` wraps it. */
export function createLifxControl(state: LifxState, settings: LifxSettings): LifxSimControl {
  const { now } = settings;

  const view = (bulb: Bulb): LifxBulbView => {
    settleEffect(bulb, now());
    const shown = visibleColor(bulb, now());
    return {
      id: bulb.id,
      label: bulb.label,
      connected: bulb.connected,
      power: bulb.power,
      color: { hue: bulb.hue, saturation: bulb.saturation, kelvin: bulb.kelvin },
      brightness: shown.brightness,
      group: bulb.group.name,
      on: shown.on,
      hex: hsbkToHex(shown),
      effect: bulb.effect?.kind ?? null,
    };
  };

  return {
    bulbs: () => state.bulbs.map(view),
    bulb: (id) => {
      const bulb = state.bulbs.find((b) => b.id === id);
      return bulb && view(bulb);
    },
    setConnected(id, connected) {
      const bulb = state.bulbs.find((b) => b.id === id);
      if (bulb) bulb.connected = connected;
    },
    failNext(failure) {
      state.failures.push({ ...failure, remaining: failure.times ?? 1 });
    },
    setRateLimit(next) {
      state.limit = next;
      state.windows.clear();
    },
    requests: () => [...state.log],
    resetRequests() {
      state.log = [];
    },
    revokeToken: (token) => state.tokens.delete(token),
    reset() {
      state.bulbs = createBulbs(settings.bulbCount);
      state.tokens = new Set(settings.initialTokens);
      state.windows.clear();
      state.failures = [];
      state.log = [];
    },
  };
}
