import type { LightStep } from '@flaglight/core';
import type {
  DriverEvents,
  LightDeviceInfo,
  LightDriver,
  LightProvider,
  LightStateCommand,
} from '../../driver.js';
import type { LightError } from '../../errors.js';
import type { Timers } from '../../timers.js';
import type { DeviceLooks } from './device-looks.js';
import type { DeviceQueue } from './device-queue.js';
import type { Reachability } from './reachability.js';

export type Strobe = Extract<LightStep, { kind: 'strobe' }>;

/**
 * One brand on the LAN skeleton (`createLanDriver`): how to find its devices, how a look becomes its
 * requests, how one request is sent. The skeleton does the rest: the device list and the ids a look
 * is aimed at, one find at a time and the timed ones, the per-device queue, reachability, the
 * `LightDriver` methods, close. Hooks marked optional have the default named beside them.
 * `Device` is the brand's own record of one light; `Request` what one request to it carries.
 */
export interface LanAdapter<Device, Request> {
  /**
   * Finds the devices (a scan, a read of the given addresses, a read of the hub's states) and
   * updates the brand's list; rejects with a `LightError` when nothing could be read. The skeleton
   * runs one at a time (a second call joins the running one) and again every `rescanIntervalMs`.
   */
  find(): Promise<void>;
  /** What `listDevices()` reads first. Default: `find()` once, if none succeeded yet. */
  beforeList?(): Promise<void>;
  /** The devices known now, in list order (rows a look may be aimed at, reachable or not). */
  devices(): readonly Device[];
  idOf(device: Device): string;
  /** The device as every driver lists it. */
  toInfo(device: Device): LightDeviceInfo;
  /**
   * Shows a look on one device: `kit.looks.begin(id, look)` (its last look, the end of its paced
   * flashes and guards), then the brand's requests for it through `kit.queue.submit(id, [...])`.
   * Resolves once sent (or replaced); rejects with a `LightError` when the device refused it.
   */
  show(device: Device, look: LightStateCommand): Promise<unknown>;
  /** Shows a strobe as the device's own effect (`nativeStrobe`). Absent: a strobe step is shown as its colour. */
  strobe?(device: Device, step: Strobe): Promise<unknown>;
  /**
   * Sends one request of the queue (never two at once to a device, `paceMs` apart); rejects with a
   * `LightError` (`lan-errors.ts` maps the rest). A silent device is the adapter's to report (`kit.reach.lost`).
   */
  send(id: string, request: Request): Promise<void>;
  /** Whether requests may go to the device. Default: `kit.reach.isReachable(id)`. */
  reachable?(id: string): boolean;
  /** False while requests must wait (a read in progress); `kit.queue.kick(id)` after. Default: true. */
  ready?(id: string): boolean;
  /** Every `healthIntervalMs` after a find: reads idle devices, so one that left is reported. */
  checkHealth?(): void;
  /** Throws a `bad-request` `LightError` for a look the brand cannot show. Default: `requireLook`. */
  requireLook?(look: LightStateCommand): void;
  /** The same for a strobe. Default: `requireStrobe` (both colours, period and cycles). */
  requireStrobe?(step: Strobe): void;
  /** Runs before a look is aimed (a first read); return nothing to queue the look at once. Default: nothing. */
  beforeLook?(): Promise<void> | void;
  /** Aims a look at devices. Default: every device for no ids, else the known ones, warning once about the rest. */
  targets?(ids: readonly string[]): Device[];
  /** A device went silent (`kit.reach.lost`): besides its queue and flashes, what to stop. */
  onLost?(id: string): void;
  /** A device answers again (`kit.reach.back`). Default: its last look is shown again. */
  onBack?(id: string): void;
  /** `cancelPending()`: besides every queue and paced flash, what to drop. */
  onCancel?(): void;
  /** `close()`: after the skeleton stopped its timers, queues and flashes (sockets, agents, probes). */
  close?(): Promise<void> | void;
}

/** What the skeleton hands an adapter: shared state and the pieces it runs on. */
export interface LanKit<Request> {
  timers: Timers;
  log: (message: string) => void;
  events: DriverEvents;
  queue: DeviceQueue<Request>;
  looks: DeviceLooks;
  reach: Reachability;
  isClosed: () => boolean;
  /** Throws when the driver is closed (`not-configured`) or was disconnected (that error). */
  ensureUsable: () => void;
  /** A wait inside `find()` (a listening window) that `close()` ends at once. */
  wait: (ms: number) => Promise<void>;
  /** Health checks start (or go on); the skeleton starts them after each find that succeeded. */
  startHealth: () => void;
  /**
   * The driver is unusable for good (a refused token, another device at the address): queues,
   * flashes and timed reads stop, the error is logged and sent as a `disconnect` event, and every
   * later call throws it. Nothing happens when closed or disconnected already.
   */
  disconnect: (error: LightError, logLine: string) => void;
}

export interface LanDriverSpec<
  P extends LightProvider,
  Device,
  Request,
  Adapter extends LanAdapter<Device, Request> = LanAdapter<Device, Request>,
> {
  provider: P;
  /** The lights in messages: "WLED lights" → "Unknown WLED lights: a, b". */
  lightsWord: string;
  /** What a call after `close()` throws (kind `not-configured`). */
  closedMessage: string;
  timers: Timers;
  log: (message: string) => void;
  nativeStrobe: boolean;
  minStrobeHalfPeriodMs: (count: number) => number;
  /** Least time between two requests to one device; 0: none. */
  paceMs: number;
  /** What `paceMs` counts from: the previous request's start (default) or its answer. */
  paceFrom?: 'start' | 'answer';
  /** From a find that succeeded to the next timed one; 0 or absent: none. */
  rescanIntervalMs?: number;
  /** A timed find failed (nobody awaited it). */
  onRescanError?: (error: unknown) => void;
  /** Between two `checkHealth()` calls; 0 or absent: none. */
  healthIntervalMs?: number;
  /** Builds the brand's adapter on the kit (what it returns beside the hooks, the brand may use). */
  adapter: (kit: LanKit<Request>) => Adapter;
}

/** The driver the skeleton builds: a `LightDriver` with `discover` (a find, then the list) and `close`. */
export interface LanDriver<P extends LightProvider> extends LightDriver {
  readonly provider: P;
  discover: () => Promise<LightDeviceInfo[]>;
  close: () => Promise<void>;
}
