export interface NanoleafSimPanel {
  panelId: number;
  x: number;
  y: number;
  o: number;
  shapeType: number;
}

export interface NanoleafSimOptions {
  /** 0 = ephemeral. */
  port?: number;
  now?: () => number;
  name?: string;
  serialNo?: string;
  /** NL42 Shapes by default. */
  model?: string;
  /** LED panels (shapeType 7, Shapes hexagons) behind a controller without LEDs (12); 0 = no `panelLayout` (Essentials). */
  panelCount?: number;
  /** Random draws for packet loss (tests pass a fixed sequence). */
  random?: () => number;
  /** How it is before anyone changes it, where it differs from on, 60 %, a warm hue. */
  firstLook?: Partial<NanoleafSimLookFields>;
}

export interface NanoleafSimFault {
  /** Share of requests whose connection is dropped unanswered (0–100). */
  dropPercent: number;
  /** Every answer waits this long. */
  delayMs: number;
  /** Every connection is closed at once (the controller left the network). */
  offline: boolean;
  /**
   * Answers `GET /api/v1/<token>/` with this serial number instead of its own, still taking the
   * tokens it issued: another controller at the paired one's address (null: its own).
   */
  serialNo: string | null;
}

export interface NanoleafSimRequest {
  at: number;
  method: string;
  /** The path with the token replaced by `<token>`. */
  path: string;
  body: unknown;
  status: number;
}

export interface NanoleafSimEffect {
  animType: string;
  loop: boolean;
  animData: string;
  /** Per listed panel: frames `[r, g, b, t]` (t in 100 ms). */
  frames: Record<number, [number, number, number, number][]>;
  startedAt: number;
  /** `displayTemp`: when the previous look comes back. */
  revertAt: number | null;
}

/** What a controller shows, as its state routes and the view tell it. */
export interface NanoleafSimLookFields {
  on: boolean;
  brightness: number;
  hue: number;
  sat: number;
  ct: number;
  colorMode: 'hs' | 'ct' | 'effect';
  select: string;
  effect: NanoleafSimEffect | null;
}

export interface NanoleafSimView extends NanoleafSimLookFields {
  id: string;
  name: string;
  model: string;
  serialNo: string;
  host: string;
  port: number;
  url: string;
  pairing: boolean;
  tokens: number;
  /** Each LED panel's colour now (`#rrggbb`, brightness applied; black when off or dark). */
  panels: { panelId: number; hex: string }[];
  identifiedAt: number | null;
  fault: NanoleafSimFault;
  requests: { total: number; state: number; effects: number };
}

export interface NanoleafSimDevice {
  /** Lower-case serial number (the driver's light id). */
  id: string;
  host: string;
  port: number;
  url: string;
  /** The "hold the power button 5–7 s" gesture: pairing is open for 30 s. */
  holdButton(): void;
  /** Removes every token (the "wrong token" fault: the next request gets 401). */
  revokeTokens(): void;
  setFault(patch: Partial<NanoleafSimFault>): NanoleafSimFault;
  view(): NanoleafSimView;
  /** Requests after pairing, oldest first. */
  requests(): NanoleafSimRequest[];
  /** Back to the first look, no faults, log cleared; tokens are kept (like a power cycle). */
  reset(): void;
  close(): Promise<void>;
}
