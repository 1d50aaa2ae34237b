import { LightError } from '../../errors.js';
import type { LanKit } from '../skeleton/lan-adapter.js';
import type { GoveeDevice } from './device.js';
import {
  describeStatus,
  GOVEE_STATUS_MESSAGE,
  lookCommands,
  statusMatches,
  type GoveeLook,
  type GoveeStatus,
} from './messages.js';
import type { GoveeLanSettings } from './settings.js';

// How the Govee LAN driver shows one look on one device: UDP has no acknowledgement, so the
// commands (paced by the skeleton's queue), the last one again after 200 ms, then a status read
// that confirms the look or has it sent again.

export interface GoveeLookSender {
  /** The newest look wins: whatever was queued or waited for is dropped. Resolves when confirmed or replaced. */
  start(device: GoveeDevice, look: GoveeLook): Promise<void>;
  /** A `devStatus` answer from the device: the look is confirmed, or sent again. */
  statusFrom(device: GoveeDevice, status: GoveeStatus): void;
  /** Nothing more is sent or waited for this look; its callers are released. */
  release(device: GoveeDevice): void;
}

export function createGoveeLookSender(kit: LanKit<string>, settings: GoveeLanSettings): GoveeLookSender {
  const { timers, log, queue, events } = kit;
  const { repeatAfterMs, statusTimeoutMs, attempts } = settings;

  /** Sends datagrams through the queue, then runs `then` unless the look was stopped meanwhile. */
  function send(device: GoveeDevice, datagrams: string[], then: () => void): void {
    const epoch = device.epoch;
    void queue.submit(device.id, datagrams).then(
      (sent) => {
        if (sent && device.epoch === epoch) then();
      },
      () => undefined,
    );
  }

  /** One try: the commands, the last one again after 200 ms, then a status read. */
  function attempt(device: GoveeDevice, look: GoveeLook): void {
    device.attempt += 1;
    device.phase = 'sending';
    const commands = lookCommands(look);
    send(device, commands, () => {
      device.phase = 'repeating';
      device.phaseTimer = timers.setTimeout(() => {
        device.phaseTimer = null;
        send(device, [commands.at(-1)!, GOVEE_STATUS_MESSAGE], () => {
          device.phase = 'confirming';
          device.phaseTimer = timers.setTimeout(() => {
            device.phaseTimer = null;
            retry(device, new LightError('timeout', `Govee device "${device.label}" is not answering`));
          }, statusTimeoutMs);
        });
      }, repeatAfterMs);
    });
  }

  function retry(device: GoveeDevice, error: LightError): void {
    if (!device.look) return;
    if (device.attempt < attempts) {
      const why = error.kind === 'timeout' ? 'no status' : 'status differs';
      log(`Govee LAN: ${device.label}: ${why}, sending again`);
      attempt(device, device.look);
      return;
    }
    device.phase = 'failed';
    log(`Govee LAN: ${error.message} (${device.address}:${device.port})`);
    events.emit({ type: 'error', error: { kind: error.kind, message: error.message } });
    settle(device, error);
  }

  function stop(device: GoveeDevice): void {
    device.epoch += 1;
    timers.clearTimeout(device.phaseTimer);
    device.phaseTimer = null;
    queue.drop(device.id);
    if (device.phase !== 'confirmed' && device.phase !== 'failed') device.phase = 'idle';
  }

  /** Ends the waits for a look: resolved when confirmed or replaced, rejected when it failed. */
  function settle(device: GoveeDevice, error: LightError | null): void {
    const waiters = device.waiters;
    device.waiters = [];
    for (const waiter of waiters) {
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  }

  return {
    start(device, look) {
      stop(device);
      settle(device, null);
      device.look = look;
      device.attempt = 0;
      // An unreachable device gets its last look when it is found again.
      if (!kit.reach.isReachable(device.id)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        device.waiters.push({ resolve, reject });
        attempt(device, look);
      });
    },
    statusFrom(device, status) {
      device.lastStatus = status;
      if (device.phase !== 'confirming' || !device.look) return;
      timers.clearTimeout(device.phaseTimer);
      device.phaseTimer = null;
      if (statusMatches(device.look, status)) {
        device.phase = 'confirmed';
        settle(device, null);
        return;
      }
      const shows = describeStatus(status);
      retry(
        device,
        new LightError(
          'server',
          `Govee device "${device.label}" answers but does not apply commands (it still shows ` +
            `${shows}). Power it off and on, and check "LAN Control" in the Govee Home app.`,
        ),
      );
    },
    release(device) {
      stop(device);
      settle(device, null);
    },
  };
}
