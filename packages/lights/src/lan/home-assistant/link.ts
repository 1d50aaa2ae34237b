import { LightError } from '../../errors.js';
import { createBackoffTimer } from '../skeleton/backoff-timer.js';
import type { LanKit } from '../skeleton/lan-adapter.js';
import {
  HOME_ASSISTANT_PROBE_MAX_MS,
  HOME_ASSISTANT_PROBE_MS,
  HOME_ASSISTANT_REFRESH_MS,
  type HomeAssistantConnection,
  type HomeAssistantDriverOptions,
} from './driver-types.js';
import {
  createHomeAssistantAgent,
  HOME_ASSISTANT_BANNED,
  HOME_ASSISTANT_TOKEN_REFUSED,
  homeAssistantRequest,
  type HomeAssistantAnswer,
} from './http.js';
import type { HomeAssistantCall } from './looks.js';

export interface HomeAssistantRequestInit {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

export type HomeAssistantRequester = (init: HomeAssistantRequestInit) => Promise<HomeAssistantAnswer>;

/** The driver's one Home Assistant instance: whether it answers, why not, and when it is read again. */
export interface HomeAssistantLink {
  state: () => HomeAssistantConnection;
  problem: () => string | null;
  /** Calls may go: connected, or not read yet. */
  usable(): boolean;
  /** Closed, or the token refused: nothing more is sent. */
  ended(): boolean;
  /** One REST call with the token, on the instance's own agent. */
  request: HomeAssistantRequester;
  /** 401/403 on any call: nothing more is sent with this token. */
  refused(status: number): void;
  /** A time-out or refused connection: what waits is dropped, and HA is asked again with back-off. */
  unreachable(error: LightError): void;
  /** A read of the lights answered: connected. Whether it was connected before. */
  answered(): boolean;
  /** The next timed read of the states, while connected. */
  armRefresh(): void;
  close(): void;
}

export function createHomeAssistantLink(options: {
  kit: LanKit<HomeAssistantCall>;
  driver: HomeAssistantDriverOptions;
  /** A read of the lights that nobody awaits (a probe, a refresh). */
  reread: () => void;
}): HomeAssistantLink {
  const { kit, driver } = options;
  const agent = createHomeAssistantAgent(driver.url, driver.insecure ?? false);
  const timeout = driver.timeoutMs === undefined ? {} : { timeoutMs: driver.timeoutMs };
  const probe = createBackoffTimer({
    timers: kit.timers,
    firstMs: driver.probeMs ?? HOME_ASSISTANT_PROBE_MS,
    maxMs: driver.probeMaxMs ?? HOME_ASSISTANT_PROBE_MAX_MS,
    run: options.reread,
  });
  const refresh = createBackoffTimer({
    timers: kit.timers,
    firstMs: driver.refreshMs ?? HOME_ASSISTANT_REFRESH_MS,
    run: options.reread,
  });
  let state: HomeAssistantConnection = 'connecting';
  let problem: string | null = null;
  const ended = () => state === 'closed' || state === 'token-refused';

  return {
    state: () => state,
    problem: () => problem,
    usable: () => state === 'connected' || state === 'connecting',
    ended,
    request: (init) => homeAssistantRequest(driver.url, driver.token, { ...init, agent, ...timeout }),
    refused(status) {
      if (ended()) return;
      state = 'token-refused';
      problem = status === 403 ? HOME_ASSISTANT_BANNED : HOME_ASSISTANT_TOKEN_REFUSED;
      probe.stop();
      refresh.stop();
      kit.disconnect(new LightError('auth', problem, 401), `Home Assistant: ${problem}`);
    },
    unreachable(error) {
      if (ended()) return;
      problem = `Home Assistant is not answering (${error.message})`;
      kit.looks.stopAll();
      kit.queue.dropAll();
      if (state !== 'unreachable') {
        state = 'unreachable';
        probe.reset();
        kit.log(problem);
        kit.events.emit({ type: 'error', error: { kind: error.kind, message: problem } });
      }
      probe.arm();
    },
    answered() {
      const wasUp = state === 'connected';
      state = 'connected';
      problem = null;
      probe.reset();
      return wasUp;
    },
    armRefresh() {
      if (state === 'connected') refresh.arm();
    },
    close() {
      state = 'closed';
      probe.stop();
      refresh.stop();
      agent.destroy();
    },
  };
}
