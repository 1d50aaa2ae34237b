import http from 'node:http';
import { LightError } from '../../errors.js';
import { createBackoffTimer } from '../skeleton/backoff-timer.js';
import type { LanKit } from '../skeleton/lan-adapter.js';
import { isSilence } from '../skeleton/lan-errors.js';
import { NANOLEAF_SERIAL_CHANGED } from './driver-types.js';
import { nanoleafBaseUrl, type NanoleafAddress } from './http.js';
import { fetchNanoleafInfo, NANOLEAF_TOKEN_REVOKED, type NanoleafInfo } from './pairing.js';

// The one controller a Nanoleaf driver is for: where it is, what it said it is, and its reads
// (`GET /api/v1/<token>/`) that find it, probe it while silent, and stop the driver when the token is
// refused or another controller answers at the address.

/** The controller's key in the skeleton's queue, looks and reachability: its listed id changes once read. */
export const CONTROLLER_KEY = 'controller';

export interface NanoleafControllerOptions {
  address: NanoleafAddress;
  token: string;
  known?: { id: string; name: string } | undefined;
  timeoutMs?: number | undefined;
  probeIntervalMs: number;
}

export interface NanoleafController {
  id(): string;
  name(): string;
  info(): NanoleafInfo | null;
  address(): NanoleafAddress;
  /** `http://host:port/api/v1/<token>`: where its writes go. */
  apiUrl(): string;
  /** Kept-alive connections for the writes, one at a time (closed when it moves). */
  agent: http.Agent;
  authorised(): boolean;
  replaced(): boolean;
  /** Still sending: not closed, the token taken, the controller the one paired with. */
  active(): boolean;
  reachable(): boolean;
  /** A read is in progress: no write goes beside it (it may show another controller). */
  reading(): boolean;
  /** One read at a time (a second call joins it); rejects with the time-out or refusal of a silent one. */
  read(): Promise<void>;
  /** `connect()`: a read that a silent controller does not fail (it is reported unreachable). */
  connect(): Promise<void>;
  /** A write found it silent: reported unreachable (the skeleton's `lost`). */
  lost(error: LightError): void;
  /** The token was refused (401, 403): the driver stops, pair again. */
  revoke(): void;
  /** It went silent: probed every `probeIntervalMs` until it answers. */
  probeLater(): void;
  moveTo(next: NanoleafAddress): void;
  close(): void;
}

export function createNanoleafController(
  kit: LanKit<unknown>,
  options: NanoleafControllerOptions,
): NanoleafController {
  const { token, known, timeoutMs } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const probe = createBackoffTimer({
    timers: kit.timers,
    firstMs: options.probeIntervalMs,
    run: () => void probeOnce(),
  });
  let address = { ...options.address };
  let info: NanoleafInfo | null = null;
  let authorised = true;
  let replaced = false;
  /** The serial number this driver is for: another one at the address is another controller. */
  let expectedId = known?.id ?? null;
  let reading: Promise<void> | null = null;

  const id = () => info?.id ?? known?.id ?? `${address.host}:${address.port}`;
  const name = () => info?.name ?? known?.name ?? 'Nanoleaf';
  const at = () => `${address.host}:${address.port}`;
  const active = () => !kit.isClosed() && authorised && !replaced;
  const reachable = () => kit.reach.isReachable(CONTROLLER_KEY);
  const isAuth = (error: unknown) => error instanceof LightError && error.kind === 'auth';
  const probeLater = () => {
    if (active()) probe.arm();
  };

  /** True when the read names the controller this driver is for; otherwise the driver stops there. */
  function isOurs(read: NanoleafInfo): boolean {
    expectedId ??= read.id;
    if (read.id === expectedId) return true;
    if (replaced) return false;
    replaced = true;
    probe.stop();
    kit.disconnect(
      new LightError('auth', NANOLEAF_SERIAL_CHANGED),
      `Nanoleaf "${name()}" at ${at()} answered with serial number ${read.id}, not ${expectedId}: nothing more is sent there`,
    );
    return false;
  }

  function revoke(): void {
    if (!authorised) return;
    authorised = false;
    probe.stop();
    kit.disconnect(
      new LightError('auth', NANOLEAF_TOKEN_REVOKED, 401),
      `Nanoleaf "${name()}": ${NANOLEAF_TOKEN_REVOKED}`,
    );
  }

  /** The controller answered as itself: usable again (its last look is sent again). */
  function answered(read: NanoleafInfo): void {
    info = read;
    if (active()) kit.reach.back(CONTROLLER_KEY, `Nanoleaf "${name()}" answers again`);
  }

  async function probeOnce(): Promise<void> {
    if (reachable() || !active()) return;
    try {
      const read = await fetchNanoleafInfo(address, token, timeoutMs);
      if (isOurs(read)) answered(read);
    } catch (error) {
      if (isAuth(error)) revoke();
      else probeLater();
    }
  }

  function read(): Promise<void> {
    reading ??= (async () => {
      try {
        const read = await fetchNanoleafInfo(address, token, timeoutMs);
        if (!isOurs(read)) return;
        answered(read);
        kit.startHealth();
      } catch (error) {
        if (isAuth(error)) return revoke();
        if (error instanceof LightError && isSilence(error)) lost(error);
        throw error;
      } finally {
        reading = null;
        kit.queue.kick(CONTROLLER_KEY);
      }
    })();
    return reading;
  }

  function lost(error: LightError): void {
    const message = `Nanoleaf "${name()}" is not answering (${error.message})`;
    kit.reach.lost(CONTROLLER_KEY, { kind: error.kind, message }, `${message} at ${at()}`);
  }

  return {
    id,
    name,
    info: () => info,
    address: () => ({ ...address }),
    apiUrl: () => `${nanoleafBaseUrl(address)}/api/v1/${encodeURIComponent(token)}`,
    agent,
    authorised: () => authorised,
    replaced: () => replaced,
    active,
    reachable,
    reading: () => reading !== null,
    read,
    async connect() {
      kit.ensureUsable();
      await read().catch((error: unknown) => {
        if (!(error instanceof LightError && isSilence(error))) throw error;
      });
    },
    lost,
    revoke,
    probeLater,
    moveTo(next) {
      if (next.host === address.host && next.port === address.port) return;
      kit.log(`Nanoleaf "${name()}" moved from ${at()} to ${next.host}:${next.port}`);
      address = { ...next };
      agent.destroy();
      if (!reachable()) void probeOnce();
    },
    close() {
      probe.stop();
      agent.destroy();
    },
  };
}
