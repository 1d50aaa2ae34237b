/**
 * Light command timing and request counts (DESIGN §7: a delayed light change fires
 * within ±50 ms of its target). Prints figures, asserts nothing. `npm run bench:lights -w @flaglight/bench`.
 *
 * - Delayed changes (LIFX sim, 10 bulbs): flags scheduled behind a delay with the effect player;
 *   offset = the simulator receiving the request − the step's target time.
 * - Effect steps (Hue sim, 1 light; the strobe expanded to the bridge pace) and the on-screen light.
 * - Requests per flag change for 1, 10 and 50 LIFX bulbs, against the 120 per 60 s budget.
 */
import { createLightProgram, type EffectFlag } from '@flaglight/core';
import {
  createEffectPlayer,
  createHueBridgeTransport,
  createHueDriver,
  createLifxCloudDriver,
  createScreenDriver,
} from '@flaglight/lights';
import { DEMO_HUE_APPLICATION_KEY, startHueSim, startLifxSim } from '@flaglight/sims';

const FLAGS: EffectFlag[] = ['green', 'yellow', 'red', 'checkered', 'vsc', 'fastest_lap'];
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function stats(name: string, offsets: number[]): void {
  const sorted = [...offsets].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const within = sorted.filter((o) => Math.abs(o) <= 50).length;
  console.log(
    `${name.padEnd(44)} n=${String(sorted.length).padStart(3)}  p50 ${at(0.5).toFixed(1).padStart(6)} ms  p99 ${at(
      0.99,
    )
      .toFixed(1)
      .padStart(
        6,
      )} ms  max ${(sorted.at(-1) ?? NaN).toFixed(1).padStart(6)} ms  within ±50 ms ${((100 * within) / sorted.length).toFixed(0)}%`,
  );
}

async function requestsPerFlag(): Promise<void> {
  console.log('\nRequests per flag change (LIFX cloud; naive = one request per bulb per step)');
  console.log('bulbs  ' + FLAGS.map((f) => f.padStart(12)).join('') + '   naive red   red budget share');
  for (const count of [1, 10, 50]) {
    const sim = await startLifxSim({ bulbCount: count });
    const driver = createLifxCloudDriver({
      baseUrl: `${sim.url}/v1`,
      token: 'demo-token',
      gapMs: 0,
      flagThrottleMs: 0,
      stateThrottleMs: 0,
    });
    const ids = sim.control.bulbs().map((b) => b.id);
    const row: number[] = [];
    for (const flag of FLAGS) {
      sim.control.resetRequests();
      const program = createLightProgram(flag);
      if (!program.ok) continue;
      for (const step of program.program.steps)
        if (step.kind !== 'restore') await driver.playStep(ids, step);
        else
          await driver.setState(ids, {
            on: true,
            color: { name: 'green', hue: 120, saturation: 1 },
            brightness: 0.5,
            transitionMs: 0,
          });
      row.push(sim.control.requests().length);
    }
    const red = row[FLAGS.indexOf('red')] ?? 0;
    console.log(
      `${String(count).padStart(5)}  ${row.map((n) => String(n).padStart(12)).join('')}   ${String(2 * count).padStart(9)}   ${((100 * red) / 120).toFixed(1)}% of 120/60 s`,
    );
    await sim.close();
  }
}

async function lifxDelayed(): Promise<number[]> {
  const sim = await startLifxSim({ bulbCount: 10 });
  const driver = createLifxCloudDriver({ baseUrl: `${sim.url}/v1`, token: 'demo-token' });
  const ids = (await driver.connect()).map((d) => d.id);
  const warmUp = createEffectPlayer({ driver, devices: () => ids });
  warmUp.play('red');
  await wait(2000);
  warmUp.dispose();
  sim.control.resetRequests();
  const targets: number[] = [];
  const player = createEffectPlayer({
    driver,
    devices: () => ids,
    onStep: ({ targetMs }) => targets.push(targetMs),
  });
  const start = Date.now() + 500;
  const flags: EffectFlag[] = [
    'red',
    'yellow',
    'red',
    'safety',
    'red',
    'yellow',
    'red',
    'yellow',
    'red',
    'safety',
  ];
  flags.forEach((flag, i) => player.schedule(flag, start + i * 1800));
  await wait(500 + flags.length * 1800 + 500);
  const received = sim.control.requests().map((r) => r.at);
  player.dispose();
  await sim.close();
  return received.map((at, i) => at - (targets[i] ?? NaN)).filter(Number.isFinite);
}

async function hueSteps(): Promise<number[]> {
  const sim = await startHueSim();
  const driver = createHueDriver({
    transport: createHueBridgeTransport({
      baseUrl: `${sim.url}/clip/v2/resource`,
      applicationKey: DEMO_HUE_APPLICATION_KEY,
    }),
  });
  const [light] = await driver.connect();
  sim.control.resetRequests();
  const targets: number[] = [];
  const player = createEffectPlayer({
    driver,
    devices: () => [light!.id],
    onStep: ({ targetMs }) => targets.push(targetMs),
  });
  const start = Date.now() + 300;
  player.schedule('red', start);
  player.schedule('checkered', start + 2000);
  player.schedule('yellow', start + 6000);
  await wait(300 + 8000);
  const received = sim.control.requests().map((r) => r.at);
  player.dispose();
  await sim.close();
  // A newer command replaces a queued one, so match each request to the latest target before it.
  console.log(`Hue: ${targets.length} steps due, ${received.length} requests received`);
  return received.map((at) => at - Math.max(...targets.filter((t) => t <= at + 5)));
}

async function screenSteps(): Promise<number[]> {
  const screen = createScreenDriver();
  const offsets: number[] = [];
  const player = createEffectPlayer({
    driver: screen,
    devices: () => ['screen'],
    onStep: ({ targetMs, firedAt }) => offsets.push(firedAt - targetMs),
  });
  const start = Date.now() + 200;
  player.schedule('checkered', start);
  player.schedule('red', start + 4000);
  await wait(200 + 6000);
  player.dispose();
  return offsets;
}

console.log('Light command timing (offset = received − target; DESIGN §7 target ±50 ms)');
const lifx = await lifxDelayed();
const hue = await hueSteps();
const screen = await screenSteps();
stats('LIFX delayed flag steps (10 bulbs, sim)', lifx);
stats('Hue effect steps (1 light, strobe at 10/s)', hue);
stats('Screen light effect steps (in page)', screen);
await requestsPerFlag();
