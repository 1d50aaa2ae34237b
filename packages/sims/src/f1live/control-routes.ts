import { type FastifyInstance, type FastifyReply } from 'fastify';
import { listRecordingNames, requireRecordingName } from '../shared/recording-names.js';
import {
  F1LIVE_MESSAGE_FAULTS,
  F1LIVE_MODES,
  type F1LiveMessageFault,
  type F1LiveMode,
  type F1LiveSimControl,
} from './types.js';

type Body = Record<string, unknown>;

function asBody(body: unknown): Body {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}

function optionalNumber(body: Body, key: string): number | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${key} must be a number`);
  return value;
}

/** `positionMs`, or `positionMinutes`, or `position` as `HH:MM:SS(.mmm)` of stream time. */
function parsePosition(body: Body): number | undefined {
  const ms = optionalNumber(body, 'positionMs');
  if (ms !== undefined) return ms;
  const minutes = optionalNumber(body, 'positionMinutes');
  if (minutes !== undefined) return minutes * 60_000;
  if (typeof body.position === 'string') {
    const m = /^(\d+):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/.exec(body.position);
    if (!m) throw new Error('position must be HH:MM:SS(.mmm)');
    return (
      ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number((m[4] ?? '0').padEnd(3, '0'))
    );
  }
  return undefined;
}

async function attempt(reply: FastifyReply, run: () => unknown): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    return reply.code(400).send({ error: error instanceof Error ? error.message : String(error) });
  }
}

/** `/_control*`: drive the F1 live-timing simulator over HTTP (e2e tests, demo). See README. */
export function registerF1LiveControlRoutes(app: FastifyInstance, control: F1LiveSimControl): void {
  app.get('/_control', async () => control.state());

  app.post('/_control', async (request, reply) =>
    attempt(reply, () => {
      const body = asBody(request.body);
      if (body.mode !== undefined) {
        if (typeof body.mode !== 'string' || !F1LIVE_MODES.includes(body.mode as F1LiveMode)) {
          throw new Error(`mode must be one of ${F1LIVE_MODES.join(', ')}`);
        }
      }
      if (body.requireCookie !== undefined && typeof body.requireCookie !== 'boolean') {
        throw new Error('requireCookie must be true or false');
      }
      if (
        body.messageFault !== undefined &&
        (typeof body.messageFault !== 'string' ||
          !F1LIVE_MESSAGE_FAULTS.includes(body.messageFault as F1LiveMessageFault))
      ) {
        throw new Error(`messageFault must be one of ${F1LIVE_MESSAGE_FAULTS.join(', ')}`);
      }
      const speed = optionalNumber(body, 'speed');
      if (body.mode !== undefined) control.setMode(body.mode as F1LiveMode);
      if (typeof body.requireCookie === 'boolean') control.requireCookie(body.requireCookie);
      if (body.messageFault !== undefined) control.setMessageFault(body.messageFault as F1LiveMessageFault);
      if (speed !== undefined) control.setSpeed(speed);
      return control.state();
    }),
  );

  const fixturesRoute = `${app.prefix}/_control/fixtures`;
  app.get('/_control/fixtures', async () => listRecordingNames().map((id) => ({ id })));

  app.post('/_control/replay', async (request, reply) =>
    attempt(reply, () => {
      const body = asBody(request.body);
      if (body.fixture === undefined) throw new Error('fixture is required');
      control.replay({
        fixture: requireRecordingName(body.fixture, fixturesRoute),
        speed: optionalNumber(body, 'speed'),
        positionMs: parsePosition(body),
      });
      return control.state();
    }),
  );

  app.post('/_control/close', async (request, reply) =>
    attempt(reply, () => {
      const body = asBody(request.body);
      if (body.error !== undefined && typeof body.error !== 'string')
        throw new Error('error must be a string');
      if (body.allowReconnect !== undefined && typeof body.allowReconnect !== 'boolean') {
        throw new Error('allowReconnect must be true or false');
      }
      return {
        closed: control.closeAll({
          error: body.error,
          allowReconnect: body.allowReconnect,
        }),
      };
    }),
  );

  app.post('/_control/drop', async () => ({ dropped: control.dropAll() }));
}
