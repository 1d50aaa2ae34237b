// Flag played → MQTT publish, measured as the time until a real subscriber on a private Mosquitto
// broker (127.0.0.1) receives it: an upper bound of the publish itself. Prints figures, asserts
// nothing. `npm run bench:mqtt -w @flaglight/companion`
import { performance } from 'node:perf_hooks';
import type { FlagEventData } from '@flaglight/core';
import mqtt from 'mqtt';
import { createMqttPublisher } from '../src/home/mqtt-publisher.js';
import { createLogger } from '../src/system/log.js';
import { MOSQUITTO, startBroker } from '../test/mosquitto.js';

const FLAGS: FlagEventData['state'][] = ['yellow', 'red', 'green', 'vsc', 'vsc_ending', 'checkered'];
const RUNS = 300;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function main(): Promise<void> {
  if (!MOSQUITTO) {
    console.log('mqtt bench: SKIPPED, mosquitto is not installed (Debian: apt-get install -y mosquitto)');
    return;
  }
  const broker = await startBroker();
  const publisher = createMqttPublisher(
    { url: broker.url },
    { companionId: 'bench', name: 'Bench', version: '0' },
    createLogger({ console: false }),
  );
  const sub = await mqtt.connectAsync(broker.url);
  try {
    while (publisher.status().state !== 'connected') await new Promise((r) => setTimeout(r, 20));
    let waiting: ((at: number) => void) | null = null;
    sub.on('message', (topic) => {
      if (topic === 'flaglight/bench/flag') waiting?.(performance.now());
    });
    await sub.subscribeAsync('flaglight/bench/flag');
    await new Promise((r) => setTimeout(r, 200));
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const state = FLAGS[i % FLAGS.length] as FlagEventData['state'];
      const now = new Date().toISOString();
      const received = new Promise<number>((resolve) => (waiting = resolve));
      const start = performance.now();
      publisher.played({
        data: { sessionKey: 1, state, activeSectors: [], cause: { date: now, message: '' }, emittedAt: now },
        source: 'bench',
        delayMs: 0,
        playedAt: new Date(),
      });
      times.push((await received) - start);
    }
    times.sort((a, b) => a - b);
    console.log(`flag played → MQTT subscriber (${RUNS} flags, private Mosquitto on 127.0.0.1)`);
    console.log(
      `  p50 ${pct(times, 50).toFixed(2)} ms, p99 ${pct(times, 99).toFixed(2)} ms, max ${times.at(-1)!.toFixed(2)} ms (target p99 ≤ 50 ms)`,
    );
    console.log('  messages per flag: 2 (flag word + state document), both retained');
  } finally {
    await sub.endAsync();
    await publisher.close();
    await broker.close();
  }
}

await main();
