import {
  createLightProgram,
  createTestProgram,
  DEFAULT_LOOK_SET,
  getFollowedSessionKind,
  getSettledLook,
  isSessionFollowed,
  type EffectFlag,
  type LookSet,
  type SessionDescription,
} from '@flaglight/core';
import {
  createScreenDriver,
  type EffectPlayer,
  type GoveeCloudDriver,
  type HueDriver,
  type LifxCloudDriver,
  type LightErrorInfo,
  type ScreenDriver,
  toLightErrorInfo,
} from '@flaglight/lights';
import type { DrivenLights } from './cloud-room';
import type { EngineContext } from './engine-context';
import { createEnginePlayers } from './engine-players';
import { createEngineRoom, type RoomNotes } from './engine-room';
import { GoveeConnection } from './govee-connection';
import { HueConnection } from './hue-connection';
import { createRaceLook, watchJoiningLights } from './joining-lights';
import { LifxConnection } from './lifx-connection';
import type { DrivenProvider } from './lights-context';
import { createErrorToasts, type LightsEngineOptions } from './lights-engine-options';
import { createProviderStates, type ProviderStores } from './provider-states';
import { createProviderStore, isProviderReady } from './provider-store';
import type { ProviderStore } from './provider-store';
import type { RoomJoins } from './room-joins';
import type { SessionRoom } from './session-room';

/**
 * Every light connection of one browser tab: the LIFX cloud driver (token in the browser), the Hue
 * driver through the app server's remote routes, Govee's cloud through the app server (key on the
 * server), the on-screen light, and an effect player for each. Each provider's connection state
 * lives in its own store (`providers`), which React reads with `useSyncExternalStore`; `session`
 * says whether the connections are still being restored. Each provider's connection is its own
 * module; this class decides which of them a flag goes to.
 */
export class LightsEngine {
  readonly lifx: LifxCloudDriver;
  readonly hue: HueDriver;
  readonly screen: ScreenDriver;
  /** Govee's cloud through the app's server, which shows each flag's settled colour within Govee's budget. */
  readonly govee: GoveeCloudDriver;
  private readonly lifxConnection: LifxConnection;
  private readonly hueConnection: HueConnection;
  private readonly goveeConnection: GoveeConnection;
  private readonly players: Record<'lifx' | 'screen', EffectPlayer>;
  private readonly states: ReturnType<typeof createProviderStates>;
  readonly providers: ProviderStores;
  readonly session = createProviderStore({ restoring: false });
  private readonly unsubscribe: (() => void)[] = [];
  /** Bumped on a user switch: answers for the previous user are ignored. */
  private epoch = 0;

  private readonly errorToasts: ReturnType<typeof createErrorToasts>;
  /** The race flag the live connection has these lights showing (for a light ticked mid-race). */
  private readonly raceLook = createRaceLook();
  /** The session the live connection follows (null: none, or one that says nothing of itself). */
  private followed: SessionDescription | null = null;
  /** "As it was": the driven lights read before a session's first change and given back after it. */
  private readonly sessionRoom: SessionRoom;
  /** Lights that joined mid-session, held out of the flags while "as it was" reads them. */
  private readonly joins: RoomJoins;
  /** Lights that cannot be read, and lights the last give-back left (Light Control says so beside each). */
  readonly roomState: ProviderStore<RoomNotes>;

  constructor(private readonly options: LightsEngineOptions) {
    this.states = createProviderStates(() => options.selection());
    this.providers = this.states.providers;
    this.errorToasts = createErrorToasts(options.notify);
    const context: EngineContext = {
      options,
      providers: this.providers,
      epoch: () => this.epoch,
      update: this.states.update,
      // Hue's and Govee's flags reach the selected lights but those being read (joined mid-session).
      selectedIds: (provider) => this.joins.free(provider, this.selectedIds(provider)),
      toastError: (message) => this.toastError(message),
    };
    this.lifxConnection = new LifxConnection(context);
    this.lifx = this.lifxConnection.driver;
    this.hueConnection = new HueConnection(context);
    this.hue = this.hueConnection.driver;
    this.screen = createScreenDriver({ label: 'On-screen light' });
    this.goveeConnection = new GoveeConnection(context);
    this.govee = this.goveeConnection.driver;
    this.players = createEnginePlayers({
      options,
      lifx: this.lifx,
      screen: this.screen,
      looks: () => this.looks(),
      screenLooks: () => this.screenLooks(),
      lifxIds: () => this.selectedIds('lifx'),
      lifxFree: (ids) => this.joins.free('lifx', ids),
      reportError: (provider, error) => this.reportError(provider, error),
    });
    const room = createEngineRoom({
      options,
      drivers: { lifx: this.lifx, hue: this.hue, govee: this.govee },
      screen: this.players.screen,
      providers: this.providers,
      restoring: this.session,
      looks: () => this.looks(),
      driven: () => this.drivenLights(),
      stopPlaying: () => this.stopRoomLights(),
      sessionFollowed: () => this.sessionFollowed(),
      toastError: (message) => this.toastError(message),
    });
    this.sessionRoom = room.session;
    this.roomState = room.notes;
    this.joins = room.joins;
    if (options.subscribeSelection)
      this.unsubscribe.push(options.subscribeSelection(() => this.states.reselect()));
    this.unsubscribe.push(
      () => room.dispose(),
      watchJoiningLights(this.providers, (provider, ids) => {
        // Read first when "as it was" wants them; the race's flag once they are, if it still plays.
        this.joins.update();
        this.joins.whenFree(provider, ids, () => {
          if (this.raceLook.current()) this.sessionRoom.gate(() => this.joinRace(provider, ids));
        });
      }),
      this.lifxConnection.listen(),
      this.hueConnection.listen(),
      this.goveeConnection.listen(),
    );
  }

  /** The account's look set (undefined: Trackside). */
  looks(): LookSet | undefined {
    return this.options.looks?.();
  }

  /**
   * The on-screen light's looks: the account's, with no flashing when the system asks for reduced
   * motion and the fan has not turned flashing on for this screen.
   */
  screenLooks(): LookSet | undefined {
    const looks = this.looks();
    if (!this.options.screenNoFlashing?.() || looks?.noFlashing) return looks;
    return { ...(looks ?? DEFAULT_LOOK_SET), noFlashing: true };
  }

  /** True when the account's looks leave this flag alone: no light of this tab is sent anything. */
  private isLeft(flag: EffectFlag): boolean {
    return (this.looks() ?? DEFAULT_LOOK_SET).flags[flag].kind === 'leave';
  }

  /**
   * The session the live connection follows from now (null when it stops). A session whose kind the
   * account does not follow (`lightFollow.sessions`) drives no light of this tab, the screen's
   * included; the follow settings are read at each flag, so a change applies to the next one.
   */
  followSession(session: SessionDescription | null, key: string | null = null): void {
    this.followed = session;
    this.sessionRoom.follow(session === null ? null : key, session ? getFollowedSessionKind(session) : null);
  }

  /** The lights a flag changes now: the driven provider's selection, and Govee's beside it. */
  private drivenLights(): DrivenLights {
    const leading = this.drivenProvider();
    const govee = isProviderReady(this.providers.govee.getSnapshot()) ? this.selectedIds('govee') : [];
    return {
      lifx: leading === 'lifx' ? this.selectedIds('lifx') : [],
      hue: leading === 'hue' ? this.selectedIds('hue') : [],
      govee,
    };
  }

  /** Nothing queued on the room's lights undoes a give-back (the screen keeps its flag). */
  private stopRoomLights(): void {
    this.players.lifx.cancelAll();
    this.hueConnection.flags.cancelAll();
    this.goveeConnection.flags.cancelAll();
  }

  /** Whether the followed session drives the lights now. */
  sessionFollowed(): boolean {
    return this.followed === null || isSessionFollowed(this.options.follow?.(), this.followed);
  }

  /** `sessionFollowed`, asked when a queued flag is due. */
  private readonly followedNow = (): boolean => this.sessionFollowed();

  selectedIds(provider: DrivenProvider): string[] {
    return [...this.providers[provider].getSnapshot().selectedIds];
  }

  /** SPEC §4: Hue when it is ready with a selected light, else LIFX on the same terms. */
  drivenProvider = (): DrivenProvider | null => this.states.drivenProvider();

  /** Listens to both providers' stores (whatever decides the driven provider). */
  subscribeProviders = (listener: () => void): (() => void) => this.states.subscribe(listener);

  /**
   * Plays a flag on the driven provider and on the on-screen light, now or at `atEpochMs`.
   * Returns false when no provider is ready (the screen still follows), and when the followed
   * session's kind is one the account does not follow (then no light plays it).
   */
  playFlag(flag: string, options: { atEpochMs?: number; only?: DrivenProvider } = {}): boolean {
    // A light's own "try" (`only`) is the fan's, not the session's: it plays whatever is followed.
    if (!options.only && !this.sessionFollowed()) return false;
    const program = createLightProgram(flag, this.looks());
    if (!program.ok) {
      this.options.notify.warning(program.warning);
      return false;
    }
    const at = options.atEpochMs;
    const shown = program.program.flag;
    // A left flag is not what the lights show: a light ticked later takes up the flag before it.
    const lasting = !options.only && !this.isLeft(shown);
    if (lasting) this.raceLook.played(shown, at);
    if (at === undefined) this.players.screen.play(flag);
    else this.players.screen.schedule(flag, at, options.only ? undefined : this.followedNow);
    if (options.only) return this.sendFlag(flag, shown, options.only, at);
    if (lasting) this.sessionRoom.played(shown, at ?? Date.now());
    // The room's lights change once they are read ("as it was"): the first flag of a session waits.
    this.sessionRoom.gate(() => this.sendFlag(flag, shown, undefined, at));
    const leading = this.drivenProvider();
    return isProviderReady(this.providers.govee.getSnapshot()) || (leading !== null && leading !== 'govee');
  }

  /** A flag to the room's lights: Govee beside the driven provider, or only the provider tried. */
  private sendFlag(
    flag: string,
    shown: EffectFlag,
    only: DrivenProvider | undefined,
    at: number | undefined,
  ): boolean {
    // A flag behind the broadcast delay plays only if its session is still followed by then (the
    // fan may turn its kind off meanwhile); a light's own try plays whatever is followed.
    const due = only ? undefined : this.followedNow;
    const later = (send: () => void) => () => {
      if (!due || due()) send();
    };
    const run = (player: EffectPlayer) =>
      at === undefined ? player.play(flag) : player.schedule(flag, at, due) !== null;
    const hue = this.hueConnection;
    const govee = this.goveeConnection;
    // Govee's lights are lights of their own: they follow every flag beside Hue or LIFX.
    const goveeReady = isProviderReady(this.providers.govee.getSnapshot());
    if (only === 'govee' || (!only && goveeReady)) {
      if (!goveeReady) return false;
      if (at === undefined) govee.sendFlag(shown);
      else
        govee.flags.at(
          at,
          later(() => govee.sendFlag(shown)),
        );
      if (only === 'govee') return true;
    } else if (!only) {
      govee.flags.cancelAll();
    }
    const leading = this.drivenProvider();
    const driven = only ?? (leading === 'govee' ? null : leading);
    if (!driven) return goveeReady && !only;
    if (only && !isProviderReady(this.providers[driven].getSnapshot())) return false;
    // The provider not driven keeps nothing queued (it may have been driven a moment ago).
    if (driven === 'hue') {
      if (!only) this.players.lifx.cancelAll();
      if (at === undefined) hue.sendFlag(shown);
      else
        hue.flags.at(
          at,
          later(() => hue.sendFlag(shown)),
        );
      return true;
    }
    if (!only) hue.flags.cancelAll();
    return run(this.players.lifx);
  }

  /**
   * SPEC §2 "Test your lights": plays a flag now on every light this tab drives, as a test: once it
   * is over (core's createTestProgram) each light goes back to the race's flag it showed, and a race
   * flag that starts meanwhile replaces the test. Returns false when no provider is ready.
   */
  playTest(flag: EffectFlag): boolean {
    this.players.screen.playMomentary(flag);
    const goveeReady = isProviderReady(this.providers.govee.getSnapshot());
    const driven = this.drivenProvider();
    const play = () => {
      if (isProviderReady(this.providers.govee.getSnapshot())) this.goveeConnection.sendTest(flag);
      const leading = this.drivenProvider();
      if (leading === 'hue') this.hueConnection.sendFlag(flag, { test: true });
      else if (leading === 'lifx') this.players.lifx.playMomentary(flag);
    };
    // With no session followed the lights are read first and given back as they were after it.
    const test = createTestProgram(flag, this.looks());
    if (test.ok && test.program.steps.length > 0) this.sessionRoom.test(play, test.program.durationMs);
    else play();
    return goveeReady || (driven !== null && driven !== 'govee');
  }

  /**
   * Lights ticked while a race is followed take up the flag showing now: LIFX its settled look at
   * once, Hue and Govee through their flag calls. Lights this tab does not drive are left alone.
   */
  private joinRace(provider: DrivenProvider, joined: string[]): void {
    const flag = this.raceLook.current();
    // Those still ticked (the fan may have unticked one while it was read).
    const ids = joined.filter((id) => this.selectedIds(provider).includes(id));
    if (ids.length === 0) return;
    if (!flag || !isProviderReady(this.providers[provider].getSnapshot())) return;
    if (provider === 'govee') return this.goveeConnection.sendFlag(flag, { ids });
    if (this.drivenProvider() !== provider) return;
    if (provider === 'hue') return this.hueConnection.sendFlag(flag, { ids });
    const look = getSettledLook(flag, this.looks());
    if (!look) return;
    this.lifx
      .playStep(ids, { kind: 'set-state', atMs: 0, ...look, transitionMs: 0 })
      .catch((error: unknown) => this.reportError('lifx', toLightErrorInfo(error)));
  }

  cancelPending(): void {
    this.raceLook.forget();
    this.sessionRoom.cancel();
    Object.values(this.players).forEach((player) => player.cancelAll());
    this.hueConnection.flags.cancelAll();
    this.goveeConnection.flags.cancelAll();
  }

  private reportError(provider: 'lifx' | 'screen', error: LightErrorInfo): void {
    // A 401 is reported once, by the driver's disconnect event.
    if (error.kind === 'auth' && provider === 'lifx') return;
    this.toastError(error.message);
  }

  private toastError(message: string): void {
    this.errorToasts.show(message);
  }

  /**
   * A new user (or none): every cache, throttle, queued request and pending effect of the previous
   * one is dropped (SPEC §4 Session), then the saved providers reconnect when `autoConnect` is on.
   */
  async start(autoConnect: boolean): Promise<void> {
    this.epoch += 1;
    const epoch = this.epoch;
    this.cancelPending();
    const token = this.options.tokenStore.read();
    this.lifx.setToken(null);
    this.hueConnection.drop();
    this.lifxConnection.reset(token !== null);
    this.hueConnection.reset();
    this.goveeConnection.reset();
    this.session.set({ restoring: true });
    await Promise.allSettled([
      token && autoConnect ? this.connectLifx(token, { quiet: true }) : Promise.resolve(),
      this.checkHue({ loadLights: autoConnect }),
      this.checkGovee({ loadLights: autoConnect }),
    ]);
    if (epoch === this.epoch) this.session.set({ restoring: false });
  }

  // --- LIFX -------------------------------------------------------------------------------

  /** Validates the token by listing the devices; stores it on success. */
  connectLifx(rawToken: string, options: { quiet?: boolean } = {}): Promise<boolean> {
    return this.lifxConnection.connect(rawToken, options);
  }

  /** Lists the devices again with the current token. */
  refreshLifx(): Promise<void> {
    return this.lifxConnection.refresh();
  }

  /** SPEC §4 Session: forgets the token, the device cache, throttles, queue and pending effects. */
  disconnectLifx(): void {
    this.players.lifx.cancelAll();
    this.lifxConnection.disconnect();
  }

  // --- Hue --------------------------------------------------------------------------------

  /** SPEC §8: marks the bridge provider disconnected, then asks the server what Hue needs. */
  markHueRefused(message: string): Promise<void> {
    return this.hueConnection.markRefused(message);
  }

  /** Asks the server whether the Hue account is connected; lists the lights when asked to. */
  checkHue(options: { loadLights?: boolean; error?: string | null } = {}): Promise<void> {
    return this.hueConnection.check(options);
  }

  loadHueLights(): Promise<void> {
    return this.hueConnection.loadLights();
  }

  disconnectHue(): Promise<void> {
    return this.hueConnection.disconnect();
  }

  /** Marks Hue as failed with a message (OAuth errors), without touching the server. */
  failHue(message: string): void {
    this.hueConnection.fail(message);
  }

  // --- Govee (cloud, through the server) -------------------------------------------------

  /** Sends the key to the server, which checks it with Govee and keeps it sealed; then lists the lights. */
  connectGovee(rawKey: string): Promise<boolean> {
    return this.goveeConnection.connect(rawKey);
  }

  /** Asks the server whether the account has a Govee key; lists the lights when asked to. */
  checkGovee(options: { loadLights?: boolean } = {}): Promise<void> {
    return this.goveeConnection.check(options);
  }

  loadGoveeLights(): Promise<void> {
    return this.goveeConnection.loadLights();
  }

  /** The server has no usable key any more: Govee shows as disconnected, with the server's words. */
  markGoveeRefused(message: string): void {
    this.goveeConnection.markRefused(message);
  }

  disconnectGovee(): Promise<void> {
    return this.goveeConnection.disconnect();
  }

  dispose(): void {
    this.epoch += 1;
    this.sessionRoom.dispose();
    this.unsubscribe.forEach((fn) => fn());
    this.hueConnection.flags.cancelAll();
    this.goveeConnection.flags.cancelAll();
    Object.values(this.players).forEach((player) => player.dispose());
  }
}
