import { createLifxLanDriver, createWledDriver } from '@flaglight/lights/lan';
import {
  startVirtualLifxBulbs,
  startWledSim,
  type VirtualLifxBulbs,
  type VirtualLifxBulbView,
  type WledSimDevice,
} from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import { until } from '../../test/demo-server.js';
import {
  closeLiveRooms,
  followLiveRoom,
  lookOf as stripLook,
  SETTLE,
  settled,
} from '../../test/live-room.js';
import { readRoomSnapshot } from './room-file.js';

// A light the fan did not tick (every light found is driven) that a driver's own rescan finds in the
// middle of a live session: held from the flags until the room has read it, and given back with the
// others. Two LIFX bulbs simulated over UDP on 127.0.0.1 beside the WLED strips of
// `test/live-room.ts`; the second answers nothing until after the session's first flag.

let bulbs: VirtualLifxBulbs | null = null;
let strip: WledSimDevice | null = null;
afterEach(async () => {
  await closeLiveRooms();
  await Promise.all([bulbs?.close(), strip?.close()]);
  bulbs = strip = null;
});

/** A bulb's id as the hub names it: its MAC without colons. */
const hubId = (b: VirtualLifxBulbView) => b.id.replaceAll(':', '');
/** What "as it was" gives back on a bulb: power and colour. */
const lookOf = (b: VirtualLifxBulbView | undefined) => JSON.stringify({ on: b?.on, color: b?.baseColor });

describe('a light found by a rescan during a live session', () => {
  test(
    'is read before the flags reach it, joins the snapshot and is given back at the end',
    { timeout: paced(40_000) },
    async () => {
      const { hub, log, strips, flag, status, asItWas, dir } = await followLiveRoom();
      const lifx = await startVirtualLifxBulbs({ count: 2 });
      bulbs = lifx;
      const [first, late] = lifx.list() as [VirtualLifxBulbView, VirtualLifxBulbView];
      lifx.setFault(late.id, { offline: true });
      const driver = createLifxLanDriver({
        targets: [{ host: lifx.host, port: lifx.discoveryPort }],
        bindAddress: '127.0.0.1',
        discoveryWindowMs: 300,
        rescanIntervalMs: 1_000,
        onLog: (message) => log.info(message),
      });
      await hub.add('lifx_lan', 'lifx', driver);
      expect(
        hub
          .lights()
          .filter((l) => l.provider === 'lifx_lan')
          .map((l) => l.id),
      ).toEqual([hubId(first)]);
      const before = { first: lookOf(lifx.get(first.id)), late: lookOf(lifx.get(late.id)) };

      status('following', 7);
      await flag('green');
      await until(
        () => settled(strips[0], '#008000') && lookOf(lifx.get(first.id)) !== before.first,
        'green on the strips and the bulb found at the start',
        SETTLE,
      );

      // The second bulb answers again: the driver's next rescan finds it, the hub drives it (nothing
      // is ticked), and the next flag comes at once.
      lifx.setFault(late.id, { offline: false });
      await until(
        () => hub.lights().some((l) => l.id === hubId(late)),
        'the bulb found by the rescan',
        SETTLE,
      );
      await flag('red');
      const sameAsFirst = () => {
        const [a, b] = [lifx.get(first.id), lifx.get(late.id)];
        return !a?.waveformRunning && !b?.waveformRunning && lookOf(a) === lookOf(b);
      };
      await until(
        () => settled(strips[0], '#800000') && sameAsFirst(),
        "red's settled look on both bulbs",
        SETTLE,
      );
      expect(lookOf(lifx.get(late.id))).not.toBe(before.late);
      expect(readRoomSnapshot(dir)?.lights[`lifx_lan:${hubId(late)}`]).toMatchObject({ readable: true });

      status('waiting', null);
      await until(
        () =>
          asItWas() &&
          lookOf(lifx.get(first.id)) === before.first &&
          lookOf(lifx.get(late.id)) === before.late,
        'the strips and both bulbs as they were',
        { ms: 8_000 },
      );
    },
  );

  test(
    'a WLED address that first answers after the first flag: its device is read before the flags reach it',
    { timeout: paced(40_000) },
    async () => {
      const { hub, strips, flag, status, asItWas, dir } = await followLiveRoom();
      const late = await startWledSim({
        name: 'Late',
        mac: 'a0b765e30009',
        first: { col: [0, 255, 255], bri: 40 },
      });
      strip = late;
      late.setFault({ offline: true });
      const driver = createWledDriver({ addresses: [{ host: late.host, port: late.port }] });
      await hub.add('wled', 'wled-late', { ...driver, discover: () => driver.connect() });
      // Nothing ticked: every WLED light found is driven, the address not answering yet too.
      hub.setSelection({ selectedLights: {}, sharedLightsDriver: 'companion' });
      const before = stripLook(late);

      status('following', 7);
      await flag('green');
      await until(() => strips.every((d) => settled(d, '#008000')), 'green on the strips', SETTLE);
      late.setFault({ offline: false });
      await until(() => settled(late, '#008000'), 'green on the device once it answers', SETTLE);
      expect(readRoomSnapshot(dir)?.lights[`wled:${late.id}`]).toMatchObject({ readable: true });

      status('waiting', null);
      await until(() => asItWas() && stripLook(late) === before, 'every strip as it was', { ms: 8_000 });
    },
  );
});
