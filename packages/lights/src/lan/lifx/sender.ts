import { hsbkToColor, type LifxMessage } from '@flaglight/core';
import { LightError } from '../../errors.js';
import type { Timers } from '../../timers.js';
import { bulbLabel, type LanBulb, type Outgoing } from './bulb.js';
import { toHex, type LanWrite } from './messages.js';
import { LIFX_LAN_CLOSED, type LifxTransport } from './transport.js';

export interface LifxSenderOptions {
  timers: Timers;
  transport: LifxTransport;
  isClosed: () => boolean;
  log: (message: string) => void;
  minGapMs: number;
  resendAfterMs: number;
  attempts: number;
  /** A bulb stopped answering (its queue is dropped already): report it and probe it. */
  onUnreachable: (message: string) => void;
}

export interface LifxSender {
  /** A reply from a reachable bulb: it ends the message in flight when it is the awaited answer. */
  receive(bulb: LanBulb, sequence: number, message: LifxMessage): void;
  /** Colour and power writes: a newer one replaces the queued (and the in-flight) one of its group. */
  write(bulb: LanBulb, writes: LanWrite[]): Promise<void>;
  /** LightGet: the bulb's label and colour, or that it is not a light. */
  query(bulb: LanBulb): Promise<void>;
  /** LightGet's answer as it came (its LightState), or null when the bulb did not answer. */
  read(bulb: LanBulb): Promise<LifxMessage | null>;
  /** Drops the queued writes (gets and probes stay). */
  cancelWrites(bulb: LanBulb): void;
  /** Drops everything queued or in flight (the driver closes). */
  dropAll(bulb: LanBulb): void;
}

/**
 * Sending to one bulb at a time: one message in flight (sets with `ack_required`, resent after
 * `resendAfterMs`, `attempts` times), at least `minGapMs` between messages, and a queue in which
 * a newer colour or power write replaces a queued one.
 */
export function createLifxSender(options: LifxSenderOptions): LifxSender {
  const { timers, transport, isClosed, log, minGapMs, resendAfterMs, attempts, onUnreachable } = options;

  function receive(bulb: LanBulb, sequence: number, message: LifxMessage): void {
    const flight = bulb.inFlight;
    if (!flight || flight.sequence !== sequence) return;
    const expected = flight.out.expect;
    const matches =
      expected === 'ack'
        ? message.type === 'Acknowledgement'
        : message.type === expected || message.type === 'StateUnhandled';
    if (!matches) return;
    timers.clearTimeout(flight.timer);
    bulb.inFlight = null;
    flight.out.resolve(message);
    pump(bulb);
  }

  function pump(bulb: LanBulb): void {
    if (isClosed() || !bulb.reachable || bulb.inFlight || bulb.paceTimer !== null) return;
    const out = bulb.queue[0];
    if (!out) return;
    const wait = bulb.lastSentAt + minGapMs - timers.now();
    if (wait > 0) {
      bulb.paceTimer = timers.setTimeout(() => {
        bulb.paceTimer = null;
        pump(bulb);
      }, wait);
      return;
    }
    bulb.queue.shift();
    const seq = transport.nextSequence();
    const bytes = transport.encode(bulb.mac, seq, out.message, out.expect === 'ack');
    bulb.inFlight = { out, bytes, sequence: seq, attempts: 1, timer: null };
    bulb.inFlight.timer = timers.setTimeout(() => resend(bulb), resendAfterMs);
    bulb.lastSentAt = timers.now();
    transport.send(bytes, bulb.port, bulb.address);
  }

  /** The same bytes again (same sequence), until the attempts are spent. */
  function resend(bulb: LanBulb): void {
    const flight = bulb.inFlight;
    if (!flight || isClosed()) return;
    if (flight.attempts >= attempts) {
      bulb.inFlight = null;
      flight.out.reject(new LightError('timeout', `LIFX bulb "${bulbLabel(bulb)}" is not answering`));
      unreachable(bulb);
      return;
    }
    flight.attempts += 1;
    flight.timer = timers.setTimeout(() => resend(bulb), resendAfterMs);
    bulb.lastSentAt = timers.now();
    transport.send(flight.bytes, bulb.port, bulb.address);
  }

  function unreachable(bulb: LanBulb): void {
    if (!bulb.reachable) return;
    bulb.reachable = false;
    timers.clearTimeout(bulb.paceTimer);
    bulb.paceTimer = null;
    const dropped = bulb.queue;
    bulb.queue = [];
    for (const out of dropped) out.resolve(null);
    const message = `LIFX bulb "${bulbLabel(bulb)}" is not answering`;
    log(`LIFX LAN: ${message} (${bulb.address}:${bulb.port})`);
    onUnreachable(message);
  }

  function enqueue(bulb: LanBulb, out: Omit<Outgoing, 'resolve' | 'reject'>): Promise<LifxMessage | null> {
    return new Promise((resolve, reject) => {
      bulb.queue.push({ ...out, resolve, reject });
      pump(bulb);
    });
  }

  function write(bulb: LanBulb, writes: LanWrite[]): Promise<void> {
    if (isClosed()) return Promise.reject(new LightError('not-configured', LIFX_LAN_CLOSED));
    const groups = new Set(writes.map((w) => w.group));
    bulb.queue = bulb.queue.filter((out) => {
      if (out.group === null || !groups.has(out.group)) return true;
      out.resolve(null);
      return false;
    });
    const flight = bulb.inFlight;
    if (flight?.out.group && groups.has(flight.out.group)) {
      // Its resends would undo the newer write.
      timers.clearTimeout(flight.timer);
      bulb.inFlight = null;
      flight.out.resolve(null);
    }
    // An unreachable bulb gets its last look when it answers again.
    if (!bulb.reachable) return Promise.resolve();
    return Promise.all(
      writes.map((w) => enqueue(bulb, { message: w.message, group: w.group, expect: 'ack' })),
    ).then(() => undefined);
  }

  async function query(bulb: LanBulb): Promise<void> {
    try {
      const reply = await enqueue(bulb, { message: { type: 'LightGet' }, group: null, expect: 'LightState' });
      if (reply?.type === 'LightState') {
        bulb.isLight = true;
        bulb.label = reply.label || bulb.label;
        const color = hsbkToColor(reply.color);
        bulb.lastColor ??= reply.power === 0 ? '#000000' : toHex(color, color.brightness);
      } else if (reply?.type === 'StateUnhandled') {
        // A LIFX Switch or another non-light (§1.3): not a light to drive.
        bulb.isLight = false;
        log(`LIFX LAN: ${bulb.id} is not a light (StateUnhandled): left out`);
      }
    } catch {
      // unreachable: reported there
    }
  }

  return {
    receive,
    write,
    query,
    read: (bulb) =>
      bulb.reachable
        ? enqueue(bulb, { message: { type: 'LightGet' }, group: null, expect: 'LightState' })
        : Promise.resolve(null),
    cancelWrites(bulb) {
      bulb.queue = bulb.queue.filter((out) => {
        if (out.group === null) return true;
        out.resolve(null);
        return false;
      });
    },
    dropAll(bulb) {
      timers.clearTimeout(bulb.paceTimer);
      if (bulb.inFlight) {
        timers.clearTimeout(bulb.inFlight.timer);
        bulb.inFlight.out.resolve(null);
        bulb.inFlight = null;
      }
      for (const out of bulb.queue) out.resolve(null);
      bulb.queue = [];
    },
  };
}
