import {
  createCheckoutSim,
  createF1LiveSim,
  createGoveeSim,
  createHueSim,
  createLifxSim,
  createJolpicaSim,
  createOpenF1Sim,
  createTurnstileSim,
  DEFAULT_OPENF1_USERS,
  DEMO_REPLAY_FIXTURE,
  startLanSim,
  startMailCatcher,
  type F1LiveSim,
  type JolpicaSim,
  type LanSim,
  type OpenF1Sim,
  type ReplayInfo,
} from '@flaglight/sims';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Timers } from '../live/clock.js';
import { type DemoLoop, startDemoLoop } from './loop.js';
import { DEMO_LOOP_TO_MINUTES, demoRacePosition, type DemoRace } from './race.js';

/**
 * The simulators of demo mode. The app mounts their plugins under /sims/ on its own origin for
 * the browser (DESIGN §5.5); the same plugins (same state) also run on an internal loopback
 * server, which the server-side clients call, so they work before and without the app listening.
 */
export interface DemoSims {
  turnstile: ReturnType<typeof createTurnstileSim>;
  mail: Awaited<ReturnType<typeof startMailCatcher>>;
  checkout: ReturnType<typeof createCheckoutSim>;
  openf1: OpenF1Sim;
  /** F1's live-timing feed (SignalR Core), telling the OpenF1 simulator's live session as F1 would. */
  f1live: F1LiveSim;
  jolpica: JolpicaSim;
  lifx: ReturnType<typeof createLifxSim>;
  hue: ReturnType<typeof createHueSim>;
  /** Govee's cloud (key demo-govee-key), called by the server's Govee client. */
  govee: ReturnType<typeof createGoveeSim>;
  /** Virtual LAN lights on 127.0.0.1: LIFX bulbs on UDP and a local Hue bridge on HTTPS. */
  lan: LanSim;
  /** Registers every simulator's routes on a scope (prefix it with /sims). */
  register: (scope: FastifyInstance) => Promise<void>;
  /** Origin of the internal server, e.g. http://127.0.0.1:41234; its routes start with /sims/. */
  origin: string;
  /** The simulator's default account, which the server's OpenF1 client follows the push with. */
  openf1Account: { username: string; password: string | undefined };
  /** Demo mode's endless race weekend: restarts the replayed race when it ends (DESIGN §4). */
  startReplayLoop(options: { timers: Timers; logger: Logger }): DemoLoop;
  close(): Promise<void>;
}

/**
 * `publicUrl` is the app's origin for links: the only one besides loopback ones (and the origin a
 * request came to) that the checkout and Hue simulators redirect the browser to.
 */
export async function startDemoSims(
  now: () => Date,
  appPort: number,
  publicUrl: string,
  lanPorts: { lifxPort: number; hueBridgePort: number } = { lifxPort: 0, hueBridgePort: 0 },
  race: DemoRace = 'loop',
): Promise<DemoSims> {
  const positionMinutes = demoRacePosition(race);
  const appOrigins = [publicUrl];
  const turnstile = createTurnstileSim({ now: () => now().getTime() });
  const mail = await startMailCatcher({ now: () => now().getTime() });
  const checkout = createCheckoutSim({
    now: () => now().getTime(),
    pagePath: '/sims/checkout',
    appOrigins,
    // Like Stripe, the simulator posts signed events to the app's webhook once it listens.
    webhookSink: async (payload, headers) => {
      if (appPort === 0) return;
      await fetch(`http://127.0.0.1:${appPort}/api/payments/webhook`, {
        method: 'POST',
        headers,
        body: payload,
      });
    },
  });
  // DESIGN §4: a real race with a safety car, VSCs and red flags, replayed as the live session.
  // The F1 live-timing simulator follows whatever the OpenF1 one replays (the demo loop's restarts,
  // a test's own replay, a speed change), so both sources tell one race under one session key.
  const f1live = createF1LiveSim({ now: () => now().getTime(), speed: 0 });
  const mirror = (replays: ReplayInfo[]) => {
    const latest = replays.reduce<ReplayInfo | null>(
      (a, b) => (a === null || Date.parse(b.dateStart) >= Date.parse(a.dateStart) ? b : a),
      null,
    );
    f1live.control.mirror(
      latest && {
        fixture: latest.fixture,
        sessionKey: latest.sessionKey,
        meetingKey: latest.meetingKey,
        originalAtMs: Date.parse(latest.recordingStart) + latest.positionMs,
        speed: latest.speed,
      },
    );
  };
  const openf1 = await createOpenF1Sim({
    now: () => now().getTime(),
    replays: [{ fixture: DEMO_REPLAY_FIXTURE, positionMinutes }],
    onReplaysChanged: mirror,
  });
  mirror(openf1.control.replays());
  const jolpica = createJolpicaSim({ now: () => now().getTime() });
  // 12 LIFX bulbs (token demo-token) and a Hue bridge with 4 lights: their pages show them live.
  const lifx = createLifxSim({ now: () => now().getTime() });
  const hue = createHueSim({ now: () => now().getTime(), appOrigins });
  // 6 Govee cloud devices: the page at /sims/govee/ shows them live.
  const govee = createGoveeSim({ now: () => now().getTime() });
  // The companion's --demo finds the LAN simulator's ports at /sims/lan/state.
  const lan = await startLanSim({ ...lanPorts, now: () => now().getTime() });
  const register = async (scope: FastifyInstance) => {
    await scope.register(openf1.plugin, { prefix: '/openf1' });
    await scope.register(f1live.plugin, { prefix: '/f1live' });
    await scope.register(jolpica.plugin, { prefix: '/jolpica' });
    await scope.register(turnstile.plugin, { prefix: '/turnstile' });
    await scope.register(mail.plugin, { prefix: '/mail' });
    await scope.register(checkout.plugin, { prefix: '/checkout' });
    await scope.register(lifx.plugin, { prefix: '/lifx' });
    await scope.register(hue.plugin, { prefix: '/hue' });
    await scope.register(govee.plugin, { prefix: '/govee' });
    await scope.register(lan.plugin, { prefix: '/lan' });
  };
  const internal = Fastify();
  await internal.register(register, { prefix: '/sims' });
  // The stripe SDK takes a host and port but no path prefix: its API is at this server's root.
  await internal.register(checkout.plugin);
  const origin = await internal.listen({ port: 0, host: '127.0.0.1' });
  return {
    turnstile,
    mail,
    checkout,
    openf1,
    f1live,
    jolpica,
    lifx,
    hue,
    govee,
    lan,
    register,
    origin,
    openf1Account: { username: 'flaglight', password: DEFAULT_OPENF1_USERS.flaglight },
    startReplayLoop: ({ timers, logger }) =>
      startDemoLoop({
        control: openf1.control,
        timers,
        fixture: DEMO_REPLAY_FIXTURE,
        positionMinutes,
        loopEndMinutes: race === 'loop' ? DEMO_LOOP_TO_MINUTES : undefined,
        logger,
      }),
    async close() {
      await internal.close();
      await openf1.close();
      await f1live.close();
      await mail.close();
      await lan.close();
    },
  };
}
