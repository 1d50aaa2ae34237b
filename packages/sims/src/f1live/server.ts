import Fastify, { type FastifyInstance } from 'fastify';
import { createF1LiveSim } from './sim.js';
import { type F1LiveSimControl, type F1LiveSimOptions } from './types.js';

export interface StartF1LiveSimOptions extends F1LiveSimOptions {
  /** 0 = a free port. Default 0. */
  port?: number;
  host?: string;
}

export interface RunningF1LiveSim {
  /** Origin, e.g. `http://127.0.0.1:41234`; control at `${url}/_control`. */
  url: string;
  /** The hub URL a client is given: `${url}/signalrcore`. */
  hubUrl: string;
  control: F1LiveSimControl;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Runs the F1 live-timing simulator on its own HTTP server (tests, tools). */
export async function startF1LiveSim(options: StartF1LiveSimOptions = {}): Promise<RunningF1LiveSim> {
  const host = options.host ?? '127.0.0.1';
  const sim = createF1LiveSim(options);
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(sim.plugin);
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://${host}:${port}`;
  return {
    url,
    hubUrl: `${url}/signalrcore`,
    control: sim.control,
    app,
    close: async () => {
      await app.close();
      await sim.close();
    },
  };
}
