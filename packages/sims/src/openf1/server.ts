import Fastify, { type FastifyInstance } from 'fastify';
import { createOpenF1Sim, type OpenF1SimControl, type OpenF1SimOptions } from './sim.js';

export interface StartOpenF1SimOptions extends OpenF1SimOptions {
  /** HTTP port, 0 = random. Default 0. */
  port?: number;
  host?: string;
  /** MQTT over TCP port, 0 = random, null = no TCP listener. Default 0. */
  mqttPort?: number | null;
}

export interface RunningOpenF1Sim {
  /** Base URL: `${url}/v1/race_control`, `${url}/token`, `${url}/_control`. */
  url: string;
  /** `mqtt://host:port`, or null without a TCP listener. */
  mqttUrl: string | null;
  /** MQTT over WebSocket: `ws://host:port/mqtt`. */
  wsUrl: string;
  control: OpenF1SimControl;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Runs the OpenF1 simulator on its own HTTP server (and MQTT port), for tests and tools. */
export async function startOpenF1Sim(options: StartOpenF1SimOptions = {}): Promise<RunningOpenF1Sim> {
  const host = options.host ?? '127.0.0.1';
  const sim = await createOpenF1Sim(options);
  const app = Fastify({ logger: false });
  await app.register(sim.plugin);
  const mqttPort = options.mqttPort === null ? null : await sim.listenMqtt(options.mqttPort ?? 0, host);
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${host}:${port}`,
    mqttUrl: mqttPort === null ? null : `mqtt://${host}:${mqttPort}`,
    wsUrl: `ws://${host}:${port}/mqtt`,
    control: sim.control,
    app,
    close: async () => {
      await app.close();
      await sim.close();
    },
  };
}
