import Fastify from 'fastify';
import { type GoveeSimControl } from './control.js';
import { createGoveeSim } from './sim.js';
import { type GoveeSimOptions } from './state.js';

export interface RunningGoveeSim {
  /** Origin; the API is `${url}/router/api/v1`, the control routes `${url}/_control`. */
  url: string;
  control: GoveeSimControl;
  close(): Promise<void>;
}

/** Runs the Govee cloud simulator on its own port on 127.0.0.1 (tests, bench). */
export async function startGoveeSim(
  options: GoveeSimOptions & { port?: number } = {},
): Promise<RunningGoveeSim> {
  const sim = createGoveeSim(options);
  const app = Fastify({ forceCloseConnections: true });
  await app.register(sim.plugin);
  const url = await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  return { url, control: sim.control, close: () => app.close() };
}
