import Fastify from 'fastify';
import { type HueSimControl } from './control.js';
import { createHueSim } from './sim.js';
import { type HueSimOptions } from './state.js';

export interface RunningHueSim {
  /** Origin; the bridge is `${url}/clip/v2/resource`, the remote API `${url}/v2/oauth2/...`, `${url}/route/...`. */
  url: string;
  control: HueSimControl;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** Runs the Hue simulator on its own port (tests, bench). */
export async function startHueSim(options: HueSimOptions & { port?: number } = {}): Promise<RunningHueSim> {
  const sim = createHueSim(options);
  const app = Fastify({ forceCloseConnections: true });
  await app.register(sim.plugin);
  const url = await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  return {
    url,
    control: sim.control,
    clientId: sim.clientId,
    clientSecret: sim.clientSecret,
    close: () => app.close(),
  };
}
