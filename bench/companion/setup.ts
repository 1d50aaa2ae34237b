/** Everything the runs need: the demo server, an account, the race paused, the companion linked. */
import { call, signUp } from '../shared/api.js';
import { startDemoServer } from '../shared/demo-server.js';
import { SetupError } from '../shared/errors.js';
import { waitFor } from '../shared/wait-for.js';
import {
  companionStatus,
  type Launch,
  launchers,
  type StartedCompanion,
  startCompanion,
} from './companion-process.js';
import { START_MINUTES } from './config.js';
import { bulbIds, setDelay, setReplay, setSpeed } from './server-api.js';

export interface Rig {
  base: string;
  token: string;
  sessionKey: number;
  bulbs: string[];
  /** What is measured: the built executable when there is one, else the sources. */
  launch: Launch;
  sources: Launch;
  companion: StartedCompanion;
  pid: number;
}

export async function setUpRig(): Promise<Rig> {
  const base = await startDemoServer();
  const token = await signUp(base, 'companion');
  await setDelay(base, token, 0);
  // The demo's live session; the race is replayed under its key, paused at the start of the stretch
  // (a paused replay is placed at speed 1, then stopped).
  const { sessionKey } = await waitFor(
    'a live session on the demo server',
    () => call<{ sessionKey: number }>(base, 'GET', '/api/live/state', undefined, token),
    30_000,
    1_000,
  );
  await setReplay(base, sessionKey, START_MINUTES, 1);
  await setSpeed(base, 0);
  const bulbs = await bulbIds(base);

  const { main: launch, sources } = launchers();
  const companion = await startCompanion(launch, base, true);
  const pid = companion.child.pid;
  if (pid === undefined) throw new SetupError('the companion has no pid');

  const code = await waitFor(
    'the link code',
    async () => (await companionStatus(companion.port)).userCode,
    30_000,
    200,
  );
  await call(base, 'POST', '/api/device/approve', { code }, token);
  await waitFor(
    'the companion to follow the race with every bulb',
    async () => {
      const s = await companionStatus(companion.port);
      return (
        s.linked &&
        s.stream.state === 'following' &&
        s.lights.filter((l) => l.provider === 'lifx_lan' && l.reachable && l.driven).length >= bulbs.length
      );
    },
    45_000,
    200,
  );
  return { base, token, sessionKey, bulbs, launch, sources, companion, pid };
}
