import { type Server as HttpServer } from 'node:http';
import { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { WebSocketServer } from 'ws';
import { systemClock } from '../shared/clock.js';
import { registerF1LiveControlRoutes } from './control-routes.js';
import { createF1LiveSimControl } from './control.js';
import { F1LIVE_MAX_MESSAGE_BYTES } from './frame-limits.js';
import { createMessageHandler } from './hub-messages.js';
import { createHub } from './hub.js';
import { type Issued, registerNegotiateRoutes } from './negotiate.js';
import { createPlayback } from './playback.js';
import { createSimState } from './state.js';
import {
  F1LIVE_HEARTBEAT_INTERVAL_MS,
  F1LIVE_PING_INTERVAL_MS,
  type F1LiveSim,
  type F1LiveSimOptions,
} from './types.js';
import { createUpgradeHandler, type UpgradeHandler } from './upgrade.js';

/** Builds the F1 live-timing (SignalR Core) simulator. Serve it with `plugin`; see README. */
export function createF1LiveSim(options: F1LiveSimOptions = {}): F1LiveSim {
  const now = options.now ?? systemClock;
  const pingMs = options.pingIntervalMs ?? F1LIVE_PING_INTERVAL_MS;
  const heartbeatMs = options.heartbeatIntervalMs ?? F1LIVE_HEARTBEAT_INTERVAL_MS;
  const state = createSimState(options);
  // The timer only fires once `start()` has run, by when the hub exists.
  const playback = createPlayback({
    now,
    fixture: options.fixture,
    speed: options.speed,
    positionMs: options.positionMs,
    onDue: () => hub.broadcastDue(),
  });
  const hub = createHub(state, playback);
  const control = createF1LiveSimControl(state, playback, hub);
  const onMessage = createMessageHandler({
    state,
    hub,
    playback,
    snapshotDelayMs: options.snapshotDelayMs ?? 0,
  });

  const issued = new Map<string, Issued>();
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: F1LIVE_MAX_MESSAGE_BYTES,
  });
  const upgradeHandlers = new Map<HttpServer, UpgradeHandler>();
  let pingTimer: NodeJS.Timeout | null = null;
  let heartbeatTimer: NodeJS.Timeout | null = null;

  const plugin: FastifyPluginAsync = async (app: FastifyInstance) => {
    const upgradePath = `${app.prefix}/signalrcore`;
    if (!upgradeHandlers.has(app.server)) {
      const handler = createUpgradeHandler(upgradePath, { state, issued, hub, wss, now, onMessage });
      upgradeHandlers.set(app.server, handler);
      app.server.on('upgrade', handler);
    }
    app.addHook('preClose', async () => {
      const handler = upgradeHandlers.get(app.server);
      if (handler) app.server.off('upgrade', handler);
      upgradeHandlers.delete(app.server);
      if (upgradeHandlers.size === 0) await close();
    });

    registerNegotiateRoutes(app, { state, issued, now });
    if (options.controlRoutes ?? true) registerF1LiveControlRoutes(app, control);
  };

  async function close(): Promise<void> {
    if (state.closed) return;
    state.closed = true;
    playback.stop();
    if (pingTimer) clearInterval(pingTimer);
    if (heartbeatTimer) clearInterval(heartbeatTimer);
    hub.closeAll(null);
    wss.close();
  }

  pingTimer = setInterval(() => hub.ping(), pingMs);
  pingTimer.unref();
  heartbeatTimer = setInterval(() => hub.heartbeat(), heartbeatMs);
  heartbeatTimer.unref();
  playback.start();
  return { control, plugin, close };
}
