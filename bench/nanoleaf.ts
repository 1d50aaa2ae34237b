/**
 * Nanoleaf on the LAN through the companion's driver: commands per flag per brand, and the time
 * from a flag to the last of 10 devices updated. Prints figures, asserts nothing; exits
 * non-zero only when the set-up fails. `npm run bench:nanoleaf -w @flaglight/bench`.
 *
 * Ten simulated controllers (7 LED panels and an LED-less controller each), each on its own HTTP
 * port on 127.0.0.1, paired by the power-button gesture; one driver and one effect player per
 * controller, as the companion's lights hub runs them. For each flag, every player starts it at the
 * same instant t0 (delay 0), then the program is left to finish.
 *
 * - Commands per flag per device: the PUTs each controller logged for the flag (`/state`,
 *   `/effects`), against the set-states a driver without effect support would need.
 * - Flag → device updated: the controller logging the flag's first PUT − t0; "last device" is the
 *   slowest of the ten (the figure the issue asks for), with the median beside it.
 * - A burst: three flags 5 ms apart, to show queued looks collapsing into the latest.
 * - The same with a 150 ms slow device (one of the ten).
 */
import { performance } from 'node:perf_hooks';
import { createLightProgram, type EffectFlag } from '@flaglight/core';
import { createEffectPlayer, expandStrobe, type EffectPlayer } from '@flaglight/lights';
import { createNanoleafDriver, pairNanoleaf, type NanoleafDriver } from '@flaglight/lights/lan';
import { startNanoleafSim, type NanoleafSimDevice } from '@flaglight/sims';
import { now, sleep } from './shared/time.js';

const DEVICES = 10;
const FLAGS: EffectFlag[] = [
  'green',
  'yellow',
  'red',
  'checkered',
  'vsc',
  'vsc_ending',
  'fastest_lap',
  'safety',
];
/** After a program's last step, the time left for its last request to land. */
const SETTLE_MS = 300;

interface Rig {
  sims: NanoleafSimDevice[];
  drivers: NanoleafDriver[];
  players: EffectPlayer[];
}

async function setUp(): Promise<Rig> {
  const sims: NanoleafSimDevice[] = [];
  const drivers: NanoleafDriver[] = [];
  const players: EffectPlayer[] = [];
  for (let k = 0; k < DEVICES; k += 1) {
    const sim = await startNanoleafSim({
      now,
      name: `Shapes ${k + 1}`,
      serialNo: `SBENCH${String(k).padStart(4, '0')}`,
    });
    sims.push(sim);
    sim.holdButton();
    const address = { host: sim.host, port: sim.port };
    const token = await pairNanoleaf(address, { pollMs: 50 });
    const driver = createNanoleafDriver({ address, token });
    await driver.connect();
    drivers.push(driver);
    players.push(createEffectPlayer({ driver, devices: () => [sim.id] }));
  }
  return { sims, drivers, players };
}

function puts(sim: NanoleafSimDevice, from: number) {
  return sim.requests().filter((r) => r.method === 'PUT' && r.at >= from);
}

/** What a driver without effect support sends for the flag (every strobe flash a set-state). */
function naiveCommands(flag: EffectFlag): number {
  const result = createLightProgram(flag);
  if (!result.ok) return NaN;
  return result.program.steps.reduce(
    (n, step) => n + (step.kind === 'strobe' ? expandStrobe(step).length : 1),
    0,
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function perFlag(rig: Rig, title: string): Promise<void> {
  console.log(`\n${title}`);
  console.log(
    'flag          commands/device  (state+effects)  naive set-states  first PUT: median   last device',
  );
  for (const flag of FLAGS) {
    const result = createLightProgram(flag);
    if (!result.ok) continue;
    const t0 = now();
    for (const player of rig.players) player.play(flag);
    await sleep(result.program.durationMs + SETTLE_MS);
    const logs = rig.sims.map((sim) => puts(sim, t0));
    const counts = logs.map((l) => l.length);
    const states = logs.map((l) => l.filter((r) => r.path.endsWith('/state')).length);
    const effects = logs.map((l) => l.filter((r) => r.path.endsWith('/effects')).length);
    const firsts = logs.map((l) => (l[0] ? l[0].at - t0 : NaN));
    const range = (v: number[]) =>
      Math.min(...v) === Math.max(...v) ? `${v[0]}` : `${Math.min(...v)}–${Math.max(...v)}`;
    console.log(
      `${flag.padEnd(14)}${range(counts).padStart(15)}  ${`(${range(states)}+${range(effects)})`.padStart(15)}  ${String(
        naiveCommands(flag),
      ).padStart(16)}  ${median(firsts).toFixed(1).padStart(12)} ms  ${Math.max(...firsts)
        .toFixed(1)
        .padStart(8)} ms`,
    );
  }
}

async function burst(rig: Rig): Promise<void> {
  const t0 = now();
  for (const flag of ['red', 'yellow', 'green'] as const) {
    for (const player of rig.players) player.play(flag);
    await sleep(5);
  }
  await sleep(5_000 + SETTLE_MS);
  const counts = rig.sims.map((sim) => puts(sim, t0).length);
  const hues = rig.sims.map((sim) => sim.view().hue);
  console.log(
    `\nBurst red → yellow → green 5 ms apart: ${median(counts)} PUTs per device (median; max ${Math.max(
      ...counts,
    )}), final hue ${[...new Set(hues)].join('/')} (green = 120) on all ${DEVICES}`,
  );
}

async function main(): Promise<void> {
  const started = performance.now();
  const rig = await setUp();
  console.log(
    `Nanoleaf: ${DEVICES} simulated controllers on 127.0.0.1, paired in ${(performance.now() - started).toFixed(0)} ms; ` +
      'strobes are one looping custom effect (T = 1: 0.2 s period, the fastest animData allows).',
  );
  try {
    await perFlag(rig, `Each flag at once on ${DEVICES} devices (delay 0)`);
    await burst(rig);
    rig.sims[DEVICES - 1]!.setFault({ delayMs: 150 });
    await perFlag(rig, `The same with one slow device (150 ms per answer)`);
  } finally {
    for (const player of rig.players) player.dispose();
    await Promise.all(rig.drivers.map((d) => d.close()));
    await Promise.all(rig.sims.map((s) => s.close()));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
