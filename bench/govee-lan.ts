/**
 * Govee LAN through the companion's driver: commands per flag and the time from a flag
 * to the last of 10 devices showing it. Prints figures, asserts nothing; exits non-zero only when
 * the set-up fails. `npm run bench:govee-lan -w @flaglight/bench`.
 *
 * 10 virtual Govee devices (packages/sims, 127.0.0.1 only, unicast scan) and the Govee LAN driver
 * with its real timing (40 ms pace per device, the last command again after 200 ms, then
 * devStatus), each flag played by the effect player as the companion plays it:
 *
 * - Commands per flag: datagrams one device received from the flag until it settled (turn,
 *   brightness, colorwc, repeats included) and the status reads (devStatus) among them.
 * - Flag → last device updated: play() → the last of the 10 devices to show the flag's first look
 *   (the simulator's state read every millisecond in this process).
 * - Last step → all confirmed: the program's last step → every device's look read back by devStatus.
 *
 * Twice: a clean LAN, then 10 % datagram loss on every device (resends on mismatch).
 */
import { performance } from 'node:perf_hooks';
import { createLightProgram, hsbToRgb, type EffectFlag } from '@flaglight/core';
import { createEffectPlayer, type EffectPlayer } from '@flaglight/lights';
import { createGoveeLanDriver, type GoveeLanDriver } from '@flaglight/lights/lan';
import { startVirtualGoveeDevices, type VirtualGoveeDevices } from '@flaglight/sims';
import { sleep } from './shared/time.js';

const DEVICES = 10;
const FLAGS: EffectFlag[] = ['green', 'yellow', 'red', 'checkered', 'vsc', 'vsc_ending', 'fastest_lap'];
/** After a flag's last step: at most this long for every look to be confirmed (resends under loss). */
const CONFIRM_LIMIT_MS = 8_000;
/** Then this long for stray repeats to be counted with the flag. */
const TAIL_MS = 300;
const DEADLINE_MS = 180_000;

interface Row {
  flag: EffectFlag;
  commands: number[];
  statusReads: number[];
  toLastDeviceMs: number;
  toConfirmedMs: number | null;
}

function programOf(flag: EffectFlag) {
  const program = createLightProgram(flag);
  if (!program.ok) throw new Error(program.warning);
  return program.program;
}

const lastStepMs = (flag: EffectFlag) => Math.max(...programOf(flag).steps.map((s) => s.atMs));

/** The flag's first look as the simulator shows it (`#rrggbb`, brightness applied). */
function firstLookHex(flag: EffectFlag): string {
  const first = programOf(flag).steps[0]!;
  if (first.kind === 'restore') throw new Error(`${flag} starts with a restore`);
  if (first.color.off) return '#000000';
  const brightness = Math.max(1, Math.round(first.brightness * 100)) / 100;
  const { r, g, b } = hsbToRgb({ hue: first.color.hue, saturation: first.color.saturation, brightness: 1 });
  return `#${[r, g, b]
    .map((c) =>
      Math.round(c * brightness)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** One player for the whole pass, as in the companion (fastest lap returns to the lasting flag). */
async function playFlag(
  sim: VirtualGoveeDevices,
  driver: GoveeLanDriver,
  player: EffectPlayer,
  ids: string[],
  flag: EffectFlag,
  steps: { lastStepAt: number },
): Promise<Row> {
  const before = new Map(ids.map((id) => [id, sim.log(id).length]));
  const expected = firstLookHex(flag);
  const shownAt = new Map<string, number>();
  steps.lastStepAt = 0;
  const start = performance.now();
  player.play(flag);
  let confirmedAt: number | null = null;
  while (performance.now() < start + lastStepMs(flag) + CONFIRM_LIMIT_MS) {
    await sleep(1);
    const now = performance.now();
    for (const id of ids) if (!shownAt.has(id) && sim.get(id)?.hex === expected) shownAt.set(id, now);
    if (steps.lastStepAt > 0 && driver.devices().every((d) => d.confirmed)) {
      confirmedAt = now;
      break;
    }
  }
  await sleep(TAIL_MS);
  const logs = ids.map((id) => sim.log(id).slice(before.get(id)));
  return {
    flag,
    commands: logs.map((log) => log.filter((r) => r.via === 'command').length),
    statusReads: logs.map((log) => log.filter((r) => r.cmd === 'devStatus').length),
    toLastDeviceMs: shownAt.size === ids.length ? Math.max(...shownAt.values()) - start : NaN,
    toConfirmedMs: confirmedAt === null ? null : confirmedAt - steps.lastStepAt,
  };
}

function print(title: string, rows: Row[]): void {
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  console.log(`\n${title}`);
  console.log(
    'flag          datagrams/device (min–max)   of them devStatus   all 10 devices   flag → last device updated   last step → all confirmed',
  );
  for (const row of rows) {
    const total = row.commands.reduce((a, b) => a + b, 0);
    console.log(
      [
        row.flag.padEnd(13),
        `${mean(row.commands).toFixed(1).padStart(6)} (${Math.min(...row.commands)}–${Math.max(...row.commands)})`.padEnd(
          28,
        ),
        mean(row.statusReads).toFixed(1).padStart(6).padEnd(19),
        String(total).padStart(6).padEnd(16),
        `${row.toLastDeviceMs.toFixed(1).padStart(8)} ms`.padEnd(28),
        row.toConfirmedMs === null
          ? `not all within ${CONFIRM_LIMIT_MS / 1000} s`
          : `${row.toConfirmedMs.toFixed(0).padStart(8)} ms`,
      ].join(' '),
    );
  }
}

async function pass(title: string, lossPercent: number): Promise<void> {
  const sim = await startVirtualGoveeDevices({ count: DEVICES });
  const driver = createGoveeLanDriver({
    targets: [{ host: sim.host, port: sim.scanPort }],
    ports: { scan: sim.scanPort, listen: sim.replyPort },
    commandPortFromReply: true,
    bindAddress: '127.0.0.1',
    rescanIntervalMs: 0,
  });
  try {
    await driver.discover();
    const ids = driver.devices().map((d) => d.id);
    if (ids.length !== DEVICES) throw new Error(`the scan found ${ids.length} of ${DEVICES} devices`);
    sim.setFault(undefined, { lossPercent });
    const steps = { lastStepAt: 0 };
    const player = createEffectPlayer({
      driver,
      devices: () => ids,
      onStep: ({ flag, step }) => {
        if (step.atMs === lastStepMs(flag)) steps.lastStepAt = performance.now();
      },
    });
    const rows: Row[] = [];
    for (const flag of FLAGS) rows.push(await playFlag(sim, driver, player, ids, flag, steps));
    player.dispose();
    print(title, rows);
  } finally {
    await driver.close();
    await sim.close();
  }
}

const deadline = setTimeout(() => {
  console.error(`bench:govee-lan ran over ${DEADLINE_MS / 1000} s: stopping.`);
  process.exit(1);
}, DEADLINE_MS);

let failed = false;
try {
  console.log(
    `Govee LAN: ${DEVICES} virtual devices on 127.0.0.1, the driver's real pacing and confirm timing`,
  );
  await pass('1. A clean LAN', 0);
  await pass('2. 10 % datagram loss on every device', 10);
} catch (error) {
  failed = true;
  console.error(`bench:govee-lan set-up failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  clearTimeout(deadline);
}
process.exit(failed ? 1 : 0);
