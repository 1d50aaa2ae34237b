import { LookSetSchema } from '@flaglight/contract';
import { EFFECT_FLAGS, hsbToRgb, type EffectFlag, type LookSet } from '@flaglight/core';
import { lookSetArbitrary } from '@flaglight/core/testing';
import fc from 'fast-check';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { GOVEE_PER_DEVICE_PER_MINUTE, planFlag, type GoveeReadState } from '../src/govee/budget.js';
import type { GoveeCloudClient, GoveeControl, GoveeDeviceState, GoveeResult } from '../src/govee/client.js';
import { createGoveeLink } from '../src/govee/sender.js';

// Govee cloud's own limits hold whatever look set a fan chooses: random look sets (left flags,
// brightness caps, No flashing) and random races of flags (bursts, fastest laps) and reads, played
// as the flag route plays them (the account's looks through planFlag, then the account's paced link)
// on a clock of vi's fake timers. The boundary is the Govee client: a double that records every
// call, answers after a random latency and sometimes with a 429 or no connection, and shows what
// each device was last set to. (The flag route has no test flags of its own: a test in the browser
// is a flag, then a give-back, which the reads and the restore here stand for.)

const RUNS = Number(process.env.FLAGLIGHT_LOOKS_RUNS) || 150;
/** Noon UTC: a run never crosses Govee's day. */
const START = Date.UTC(2026, 5, 7, 12);
const MINUTE_MS = 60_000;
/** Long enough for every device to settle: backed-off retries included, the worst is a few minutes. */
const SETTLE_MS = 20 * MINUTE_MS;

const percent = fc.integer({ min: 1, max: 100 });
/** Any look set the account can store: the contract's own schema has the last word. */
const lookSet: fc.Arbitrary<LookSet> = lookSetArbitrary().filter(
  (looks) => LookSetSchema.safeParse(looks).success,
);

type RaceEvent = { kind: 'flag'; flag: EffectFlag; afterMs: number } | { kind: 'read'; afterMs: number };
/** A gap before each event: a burst (within the coalescing window and just past it) or seconds. */
const gap = fc.oneof(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 400, max: 40_000 }));
const race: fc.Arbitrary<RaceEvent[]> = fc.array(
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('flag' as const),
        flag: fc.constantFrom<EffectFlag>(...EFFECT_FLAGS),
        afterMs: gap,
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('read' as const), afterMs: gap }) },
  ),
  { minLength: 1, maxLength: 14 },
);

/** What a device shows (a colour or a white). */
interface Shown {
  on: boolean;
  brightness: number;
  rgb?: number;
  kelvin?: number;
}
const shown: fc.Arbitrary<Shown> = fc
  .record({
    on: fc.boolean(),
    brightness: percent,
    colour: fc.oneof(
      fc.integer({ min: 0, max: 0xffffff }).map((rgb) => ({ rgb })),
      fc.integer({ min: 2000, max: 9000 }).map((kelvin) => ({ kelvin })),
    ),
  })
  .map(({ colour, ...rest }) => ({ ...rest, ...colour }));

type Outcome = 'ok' | 'rate-limit' | 'unreachable';
/** Each device's answers in turn, round and round: at least one a round goes through. */
const outcomes = fc
  .array(fc.constantFrom<Outcome>('ok', 'ok', 'ok', 'rate-limit', 'unreachable'), { maxLength: 5 })
  .map((list) => [...list, 'ok' as const]);
const latencies = fc.array(fc.integer({ min: 0, max: 4_000 }), { minLength: 1, maxLength: 6 });

interface RecordedCall {
  device: string;
  at: number;
  call: 'state' | 'control';
}

/** The Govee client double: records each call, answers after its latency, and keeps what each device shows. */
function createRecordingClient(first: Shown[], answers: Outcome[], delays: number[]) {
  const devices = first.map((_, i) => ({ sku: 'H6008', device: `7A:4B:D4:AD:FC:0${i}:C0:0${i}` }));
  const shows = new Map(devices.map((d, i) => [d.device, { ...first[i]! }]));
  const calls: RecordedCall[] = [];
  const inFlight = new Set<string>();
  const overlaps: RecordedCall[] = [];
  const turns = new Map<string, number>();

  function answer<T>(device: string, call: RecordedCall['call'], value: () => T): Promise<GoveeResult<T>> {
    const recorded = { device, at: Date.now(), call };
    calls.push(recorded);
    if (inFlight.has(device)) overlaps.push(recorded);
    inFlight.add(device);
    const turn = turns.get(device) ?? 0;
    turns.set(device, turn + 1);
    const outcome = answers[turn % answers.length]!;
    return new Promise((resolve) =>
      setTimeout(
        () => {
          inFlight.delete(device);
          if (outcome === 'rate-limit')
            resolve({
              ok: false,
              kind: 'rate-limit',
              detail: 'Too Many Requests',
              rate: {},
              retryAfterMs: 5_000,
            });
          else if (outcome === 'unreachable')
            resolve({ ok: false, kind: 'unreachable', detail: 'no connection (ECONNRESET)', rate: {} });
          else resolve({ ok: true, value: value(), rate: {} });
        },
        delays[calls.length % delays.length],
      ),
    );
  }

  function apply(look: Shown, capability: GoveeControl): null {
    if (capability.instance === 'powerSwitch') look.on = capability.value === 1;
    else if (capability.instance === 'brightness') look.brightness = capability.value;
    else if (capability.instance === 'colorRgb') {
      look.rgb = capability.value;
      delete look.kelvin;
    } else if (capability.instance === 'colorTemperatureK') {
      look.kelvin = capability.value;
      delete look.rgb;
    }
    return null;
  }

  const client: GoveeCloudClient = {
    timeoutMs: 10_000,
    listDevices: () => Promise.resolve({ ok: true, value: [], rate: {} }),
    state: (_key, target) =>
      answer(target.device, 'state', (): GoveeDeviceState => {
        const look = shows.get(target.device)!;
        // Govee reports a colour beside a white's kelvin too (the client keeps the kelvin then).
        return {
          online: true,
          on: look.on,
          brightness: look.brightness,
          rgb: look.rgb ?? 0xffffff,
          ...(look.kelvin === undefined ? {} : { kelvin: look.kelvin }),
        };
      }),
    control: (_key, target, capability) =>
      answer(target.device, 'control', () => apply(shows.get(target.device)!, capability)),
  };
  return { client, devices, shows, calls, overlaps };
}

/** The most calls in any window of a minute that starts at one of them. */
function busiestMinute(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while (j < sorted.length && sorted[j]! < sorted[i]! + MINUTE_MS) j += 1;
    most = Math.max(most, j - i);
  }
  return most;
}

const rgbOf = (color: { hue: number; saturation: number }) => {
  const { r, g, b } = hsbToRgb({ hue: color.hue, saturation: color.saturation, brightness: 1 });
  return r * 65536 + g * 256 + b;
};

/**
 * What every device shows once the race has settled, from the look set alone: the settled look of
 * the last lasting flag not left alone (its settle brightness under the cap); a fastest lap with no
 * such flag before stays on its own look; nothing at all (null) when every flag was left alone.
 */
function expectedAfter(events: readonly RaceEvent[], looks: LookSet): Shown | null {
  let lasting: Shown | null = null;
  let momentary: Shown | null = null;
  for (const event of events) {
    if (event.kind !== 'flag') continue;
    const look = looks.flags[event.flag];
    if (look.kind === 'leave') continue;
    const level = (value: number) => Math.max(1, Math.round(Math.min(value, looks.brightnessCap)));
    if (event.flag === 'fastest_lap') {
      momentary = { on: true, rgb: rgbOf(look.color), brightness: level(look.brightness) };
      continue;
    }
    lasting = { on: true, rgb: rgbOf(look.color), brightness: level(look.settleBrightness) };
    momentary = null;
  }
  return lasting ?? momentary;
}

interface RaceRun {
  looks: LookSet;
  events: RaceEvent[];
  first: Shown[];
  answers: Outcome[];
  delays: number[];
  readFirst: boolean;
}

/**
 * One race on the clock of vi's fake timers: reads first (when asked), then each event after its
 * gap, played as the flag route plays it, then time for every device to settle.
 */
async function playRace(run: RaceRun) {
  const double = createRecordingClient(run.first, run.answers, run.delays);
  const link = createGoveeLink(
    {
      client: double.client,
      logger: pino({ level: 'silent' }),
      now: () => Date.now(),
      onKeyRefused: () => {},
    },
    'user-1',
    'govee-key',
    'sealed-key',
  );
  link.setDevices(double.devices);
  const ids = double.devices.map((d) => d.device);
  const before = run.readFirst ? ids.map((id) => link.readState(id)) : [];
  const reads: Promise<GoveeReadState>[] = [...before];
  for (const event of run.events) {
    await vi.advanceTimersByTimeAsync(event.afterMs);
    if (event.kind === 'read') {
      reads.push(...ids.map((id) => link.readState(id)));
      continue;
    }
    // As the flag route plays it (service.playFlag): the account's looks, in the link's budget mode.
    const plan = planFlag(event.flag, link.mode(), run.looks);
    if (plan.send && plan.look) link.playLook(ids, plan.look, plan.restoreAfterMs);
  }
  await vi.advanceTimersByTimeAsync(SETTLE_MS);
  return { double, link, ids, before, reads };
}

/** Govee's limits over everything sent: 10 a device in any minute, one in flight, each counted in the day. */
async function expectLimitsHeld({ double, link, ids, reads }: Awaited<ReturnType<typeof playRace>>) {
  // Every read was answered (a read waiting for its turn is not left hanging).
  await Promise.all(reads);
  for (const id of ids) {
    const times = double.calls.filter((c) => c.device === id).map((c) => c.at);
    expect(busiestMinute(times)).toBeLessThanOrEqual(GOVEE_PER_DEVICE_PER_MINUTE);
  }
  expect(double.overlaps).toEqual([]);
  expect(link.status().sentToday).toBe(double.calls.length);
}

const raceRun: fc.Arbitrary<RaceRun> = fc.record({
  looks: lookSet,
  events: race,
  first: fc.array(shown, { minLength: 2, maxLength: 4 }),
  answers: outcomes,
  delays: latencies,
  readFirst: fc.boolean(),
});

describe("Govee cloud's limits hold for any look set and race", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: START, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('at most 10 calls a device a minute, one in flight, each counted; each device ends on the last lasting flag, then is given back as read', async () => {
    await fc.assert(
      fc.asyncProperty(raceRun, async (run) => {
        vi.setSystemTime(START);
        const played = await playRace(run);
        const { double, link, ids, before } = played;
        const expected = expectedAfter(run.events, run.looks);
        for (const id of ids) {
          const controls = double.calls.filter((c) => c.device === id && c.call === 'control');
          if (expected === null) expect(controls).toEqual([]);
          else expect(double.shows.get(id)).toEqual(expected);
        }
        expect(link.status().pendingLights).toBe(0);

        // "As it was": what was read before the race is given back (a white by its kelvin).
        const saved = await Promise.all(before);
        const given = saved.flatMap((read, i) => (read.readable ? [{ id: ids[i]!, look: read.state }] : []));
        link.restore(given);
        await vi.advanceTimersByTimeAsync(SETTLE_MS);
        for (const { id } of given) {
          const was = run.first[ids.indexOf(id)]!;
          expect(double.shows.get(id)).toEqual(was.on ? was : expect.objectContaining({ on: false }));
        }
        await expectLimitsHeld(played);
        link.close();
      }),
      { numRuns: RUNS },
    );
  });

  test('a race whose flags the looks all leave alone sends nothing', async () => {
    const allLeft = lookSet.map((looks): LookSet => ({
      ...looks,
      flags: Object.fromEntries(EFFECT_FLAGS.map((flag) => [flag, { kind: 'leave' }])) as LookSet['flags'],
    }));
    await fc.assert(
      fc.asyncProperty(raceRun, allLeft, async (run, looks) => {
        vi.setSystemTime(START);
        const played = await playRace({ ...run, looks });
        expect(played.double.calls.filter((c) => c.call === 'control')).toEqual([]);
        await expectLimitsHeld(played);
        played.link.close();
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });
});
