import { type BundledSession } from '@flaglight/data';
import { type FastifyInstance, type FastifyReply } from 'fastify';
import { optionalNumber, parseFaultSpec } from '../shared/faults.js';
import { requireBundledSession } from '../shared/recording-names.js';
import type { OpenF1SimControl } from './control.js';
import { type ReplayOptions } from './replay.js';

type Body = Record<string, unknown>;

function asBody(body: unknown): Body {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}

/** `fixturesRoute`: named in the error for a fixture off packages/data's list. */
function parseReplay(raw: unknown, fixturesRoute: string): ReplayOptions {
  const body = asBody(raw);
  if (body.fixture === undefined) throw new Error('fixture is required');
  const fixture = requireBundledSession(body.fixture, fixturesRoute).id;
  const startedAt = body.startedAt;
  if (startedAt !== undefined && typeof startedAt !== 'string' && typeof startedAt !== 'number') {
    throw new Error('startedAt must be an ISO date or epoch ms');
  }
  return {
    fixture,
    startedAt,
    startedMinutesAgo: optionalNumber(body, 'startedMinutesAgo'),
    positionMinutes: optionalNumber(body, 'positionMinutes'),
    speed: optionalNumber(body, 'speed'),
    sessionKey: optionalNumber(body, 'sessionKey'),
    meetingKey: optionalNumber(body, 'meetingKey'),
  };
}

async function attempt(reply: FastifyReply, run: () => unknown): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    return reply.code(400).send({ error: error instanceof Error ? error.message : String(error) });
  }
}

/** `/_control/*`: drive the OpenF1 simulator over HTTP (e2e tests, a person in demo mode). See README. */
export function registerControlRoutes(
  app: FastifyInstance,
  control: OpenF1SimControl,
  bundles: () => BundledSession[],
): void {
  app.get('/_control', async () => ({
    now: new Date(control.now()).toISOString(),
    replays: control.replays(),
    faults: control.faults(),
    pushClients: control.pushClients(),
    requests: control.requestCounts(),
  }));

  const fixturesRoute = `${app.prefix}/_control/fixtures`;
  app.get('/_control/fixtures', async () =>
    bundles().map((b) => ({
      id: b.id,
      year: b.year,
      meeting: b.meetingName,
      sessionName: b.sessionName,
      sessionType: b.sessionType,
      sessionKey: b.sessionKey,
      meetingKey: b.meetingKey,
      messages: b.messages.length,
      lengthMs: b.lengthMs,
    })),
  );

  app.get('/_control/replays', async () => control.replays());
  app.post('/_control/replays', async (request, reply) =>
    attempt(reply, () => reply.code(201).send(control.replay(parseReplay(request.body, fixturesRoute)))),
  );
  app.put('/_control/replays', async (request, reply) =>
    attempt(reply, () => {
      const list = asBody(request.body).replays;
      if (!Array.isArray(list)) throw new Error('replays must be an array');
      return control.setReplays(list.map((entry) => parseReplay(entry, fixturesRoute)));
    }),
  );
  app.delete('/_control/replays', async () => {
    control.clearReplays();
    return { ok: true };
  });

  app.post('/_control/speed', async (request, reply) =>
    attempt(reply, () => {
      const speed = optionalNumber(asBody(request.body), 'speed');
      if (speed === undefined) throw new Error('speed is required');
      control.setSpeed(speed);
      return control.replays();
    }),
  );

  app.get('/_control/faults', async () => control.faults());
  app.post('/_control/faults', async (request, reply) =>
    attempt(reply, () => reply.code(201).send(control.fault(parseFaultSpec(request.body)))),
  );
  app.delete('/_control/faults', async () => {
    control.clearFaults();
    return { ok: true };
  });

  app.post('/_control/require-token', async (request, reply) =>
    attempt(reply, () => {
      const required = asBody(request.body).required;
      if (typeof required !== 'boolean') throw new Error('required must be true or false');
      control.requireToken(required);
      return { required };
    }),
  );

  app.post('/_control/drop-push', async (request, reply) =>
    attempt(reply, () => ({
      dropped: control.dropPush({ refuseForMs: optionalNumber(asBody(request.body), 'refuseForMs') }),
    })),
  );

  app.post('/_control/tokens/expire', async () => {
    control.expireTokens();
    return { ok: true };
  });

  app.get('/_control/requests', async () => ({ counts: control.requestCounts(), log: control.requestLog() }));
  app.delete('/_control/requests', async () => {
    control.resetRequests();
    return { ok: true };
  });
}
