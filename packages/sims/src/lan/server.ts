import Fastify from 'fastify';
import { type LanSim, type LanSimOptions, startLanSim } from './sim.js';

export interface RunningLanSim {
  /** Origin; the simulator is at `${url}/sims/lan`, where a demo server has it. */
  url: string;
  sim: LanSim;
  close(): Promise<void>;
}

/**
 * The LAN simulator on its own port, under `/sims/lan` as in a demo server (tests of the companion's
 * `--demo`, which reads `/sims/lan/state`). `port` 0 = ephemeral; give the same port again to stand
 * for a demo server that restarts with a new simulator.
 */
export async function startLanSimServer(
  options: LanSimOptions & { port?: number } = {},
): Promise<RunningLanSim> {
  const { port, ...simOptions } = options;
  const sim = await startLanSim(simOptions);
  const app = Fastify({ forceCloseConnections: true });
  try {
    await app.register(sim.plugin, { prefix: '/sims/lan' });
    const url = await app.listen({ port: port ?? 0, host: '127.0.0.1' });
    return {
      url,
      sim,
      async close() {
        await app.close();
        await sim.close();
      },
    };
  } catch (error) {
    await app.close();
    await sim.close();
    throw error;
  }
}
