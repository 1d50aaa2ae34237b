import { type ActiveFault, type FaultSpec } from '../shared/faults.js';
import { createHueLights, type HueSimLight, xyToHex } from './lights.js';
import { type HueLoggedRequest, type HueSettings, type HueState, resetHueState } from './state.js';

export interface HueLightView {
  id: string;
  label: string;
  on: boolean;
  brightness: number;
  xy: { x: number; y: number };
  hex: string;
  durationMs: number;
  effect: null;
}

export interface HueSimControl {
  lights(): HueLightView[];
  light(id: string): HueLightView | undefined;
  /** Presses the bridge's link button: `POST /api` pairs for the next 30 s. */
  pressLinkButton(): void;
  /** A light that dropped off the Zigbee network: its zigbee_connectivity says connectivity_issue. */
  setReachable(id: string, reachable: boolean): boolean;
  /** A light removed in the Hue app: it leaves the light list, and calls to it get 404. */
  removeLight(id: string): boolean;
  /** A light newly paired with the bridge: it joins the light list. */
  addLight(): HueLightView;
  /** A vanished bridge: local and remote light calls fail at the connection. */
  setOffline(offline: boolean): void;
  applicationKeys(): string[];
  /** Every access token stops working (as if expired); refresh tokens still do. */
  expireAccessTokens(): void;
  /** The bridge forgets an application key (as if removed in the Hue app): calls with it get 401. */
  revokeApplicationKey(key: string): boolean;
  /**
   * Misbehaviour of the CLIP v2 light calls, local and remote alike (`429` storms, `503`, slow
   * answers, cut bodies). `path` is below `/clip/v2/resource`'s parent, without `/route`, e.g.
   * `/clip/v2/resource/light`.
   */
  fault(spec: FaultSpec): ActiveFault;
  faults(): ActiveFault[];
  clearFaults(): void;
  requests(): HueLoggedRequest[];
  resetRequests(): void;
  reset(): void;
}

function viewLight(l: HueSimLight): HueLightView {
  return {
    id: l.id,
    label: l.name,
    on: l.on,
    brightness: l.brightness / 100,
    xy: { ...l.xy },
    hex: xyToHex(l.xy, l.brightness),
    durationMs: l.lastDurationMs,
    effect: null,
  };
}

/** The in-process handle on the simulator's state (tests, demo mode); `/_control/*` wraps it. */
export function createHueControl(state: HueState, settings: HueSettings): HueSimControl {
  const { now } = settings;
  return {
    lights: () => state.lights.map(viewLight),
    light: (id) => {
      const l = state.lights.find((x) => x.id === id);
      return l && viewLight(l);
    },
    pressLinkButton() {
      state.linkPressedAt = now();
    },
    setReachable(id, reachable) {
      const light = state.lights.find((l) => l.id === id);
      if (light) light.reachable = reachable;
      return light !== undefined;
    },
    removeLight(id) {
      const before = state.lights.length;
      state.lights = state.lights.filter((l) => l.id !== id);
      return state.lights.length !== before;
    },
    addLight() {
      // The next light of a bigger bridge, so its id and name are as stable as the first ones'.
      state.added += 1;
      const fresh = createHueLights(settings.lightCount + state.added, now()).at(-1)!;
      state.lights = [...state.lights, fresh];
      return viewLight(fresh);
    },
    setOffline(next) {
      state.offline = next;
    },
    applicationKeys: () => [...state.appKeys],
    expireAccessTokens() {
      state.accessTokens = new Map();
    },
    revokeApplicationKey: (key) => state.appKeys.delete(key),
    fault: (spec) => state.faults.add(spec),
    faults: () => state.faults.list(),
    clearFaults: () => state.faults.clear(),
    requests: () => [...state.log],
    resetRequests() {
      state.log = [];
    },
    reset() {
      resetHueState(state, settings);
    },
  };
}
