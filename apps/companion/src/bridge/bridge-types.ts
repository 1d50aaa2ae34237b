// What the local bridge serves: the companion's status, and the actions its API may ask for.

export interface BridgeStatus {
  version: string;
  platform: NodeJS.Platform;
  linked: boolean;
  [key: string]: unknown;
}

export interface BridgeActions {
  status(): BridgeStatus;
  /** Plays one flag's effect now; false for an unknown state. */
  test(state: string): boolean;
  setPaused(paused: boolean): void;
  rescan(): Promise<void>;
  /** Pairs a Hue bridge (link button); resolves when paired or refused. */
  pairHue(url: string | undefined): Promise<{ ok: true; name: string } | { ok: false; error: string }>;
  /** Pairs a Nanoleaf controller (power button held 5–7 s); resolves when paired or timed out. */
  pairNanoleaf(
    address: string | undefined,
  ): Promise<{ ok: true; name: string } | { ok: false; error: string }>;
  /** Unpairs a Nanoleaf controller by its id (its token and its driver go); null for an unknown id. */
  forgetNanoleaf(id: string): Promise<{ name: string } | null>;
  /** Forgets the link (the `unlink` command talking to the running companion). */
  unlink(): Promise<void>;
  /** Checks and keeps a Home Assistant access token (entered on the status page only). */
  saveHomeAssistantToken?(token: string): Promise<{ ok: true } | { ok: false; error: string }>;
  /** Drops the saved Home Assistant token. */
  forgetHomeAssistantToken?(): Promise<void>;
  /**
   * Updates (the status page only): check now, the automatic switch, install the downloaded one,
   * the channel, the versions offered and one picked by hand (an older one once confirmed).
   */
  updates?: {
    check(): Promise<unknown>;
    setAuto(auto: boolean): void;
    installWhenQuiet(): boolean;
    setChannel?(channel: 'stable' | 'beta'): void;
    listVersions?(): Promise<unknown>;
    installVersion?(
      version: string,
      confirmOlder: boolean,
    ): Promise<{ ok: boolean; message: string; confirm?: { version: string; running: string } }>;
  };
}
