import Fastify from 'fastify';
import { type LifxSimControl } from './control.js';
import { createLifxSim } from './sim.js';
import { type LifxSimOptions } from './state.js';

export interface RunningLifxSim {
  /** Origin; the API is `${url}/v1`, the control routes `${url}/_control`. */
  url: string;
  control: LifxSimControl;
  close(): Promise<void>;
}

/** Runs the LIFX simulator on its own port (tests, bench). */
export async function startLifxSim(
  options: LifxSimOptions & { port?: number } = {},
): Promise<RunningLifxSim> {
  const sim = createLifxSim(options);
  const app = Fastify({ forceCloseConnections: true });
  await app.register(sim.plugin);
  const url = await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  return { url, control: sim.control, close: () => app.close() };
}
