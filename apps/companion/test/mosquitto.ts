// A private Mosquitto broker on a loopback port, for the MQTT tests (Debian `mosquitto`; .ci/run
// installs it). Each test run gets its own folder, port and (optionally) password file.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreeTcpPort as freePort } from '@flaglight/sims';
import mqtt, { type MqttClient } from 'mqtt';

export const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((file) => fs.existsSync(file));
const MOSQUITTO_PASSWD = ['/usr/bin/mosquitto_passwd', '/usr/sbin/mosquitto_passwd'].find((file) =>
  fs.existsSync(file),
);

export { freePort };

export interface Broker {
  port: number;
  url: string;
  /** Stops the broker (SIGKILL: it keeps nothing) and waits for it. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startBroker(options: { users?: Record<string, string> } = {}): Promise<Broker> {
  if (!MOSQUITTO) throw new Error('mosquitto is not installed (Debian: apt-get install -y mosquitto)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-mosquitto-'));
  const port = await freePort();
  // stderr is unbuffered (stdout to a pipe is not: "running" would never arrive). As root, Mosquitto
  // drops to its own user, which could not read the password file in this private folder.
  const lines = [`listener ${port} 127.0.0.1`, 'persistence false', 'log_dest stderr'];
  if (process.getuid?.() === 0) lines.push('user root');
  if (options.users) {
    if (!MOSQUITTO_PASSWD) throw new Error('mosquitto_passwd is not installed');
    const file = path.join(dir, 'passwd');
    fs.writeFileSync(file, '');
    for (const [user, password] of Object.entries(options.users))
      execFileSync(MOSQUITTO_PASSWD, ['-b', file, user, password]);
    fs.chmodSync(file, 0o600);
    lines.push('allow_anonymous false', `password_file ${file}`);
  } else {
    lines.push('allow_anonymous true');
  }
  const conf = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(conf, `${lines.join('\n')}\n`);
  let child: ChildProcess | null = null;

  const start = async () => {
    const proc = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mosquitto did not start:\n${out}`)), 10_000);
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        if (/running/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout?.on('data', onData);
      proc.stderr?.on('data', onData);
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`mosquitto exited (${String(code)}):\n${out}`));
      });
    });
  };
  const stop = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    start,
    stop,
    async close() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface SeenMessage {
  topic: string;
  payload: string;
  retain: boolean;
  at: number;
}

/** A real subscriber: every message on `flaglight/#` and `homeassistant/#`, retained ones first. */
export async function subscribeAll(url: string) {
  const client: MqttClient = await mqtt.connectAsync(url, { reconnectPeriod: 200 });
  const seen: SeenMessage[] = [];
  client.on('message', (topic, payload, packet) =>
    seen.push({ topic, payload: payload.toString(), retain: packet.retain, at: Date.now() }),
  );
  await client.subscribeAsync(['flaglight/#', 'homeassistant/#']);
  const last = (topic: string) => seen.filter((m) => m.topic === topic).at(-1);
  return { client, seen, last };
}
