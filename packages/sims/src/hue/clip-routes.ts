import crypto from 'node:crypto';
import { type FastifyInstance, type FastifyReply } from 'fastify';
import { type Clock } from '../shared/clock.js';
import { type FaultResponses } from '../shared/faults.js';
import { applyLightPut, toClipConnectivity, toClipLight } from './lights.js';
import { hasValidBearer } from './oauth.js';
import { asBody, HUE_LINK_BUTTON_WINDOW_MS, HUE_SIM_BRIDGE_ID, type HueState } from './state.js';

/** CLIP v2 error bodies (reference §3.3: `{errors: [{description}]}` with a 4xx/5xx). */
export const HUE_FAULTS: FaultResponses = {
  unauthorized: {
    status: 401,
    contentType: 'application/json',
    body: JSON.stringify({ errors: [{ description: 'unauthorized user' }], data: [] }),
  },
  'rate-limit': {
    status: 429,
    contentType: 'application/json',
    body: JSON.stringify({ errors: [{ description: 'Too many requests' }], data: [] }),
  },
  'server-error': {
    status: 503,
    contentType: 'application/json',
    body: JSON.stringify({ errors: [{ description: 'service unavailable' }], data: [] }),
  },
};

const clipError = (reply: FastifyReply, status: number, description: string) =>
  reply.code(status).send({ errors: [{ description }], data: [] });

/**
 * `POST /api` (local, with client key) and `POST /route/api` (remote): a new application key if
 * the link button was pressed within the window, else error 101.
 */
export function pairApplication(
  state: HueState,
  now: Clock,
  body: unknown,
  linkAt: number,
  withClientKey: boolean,
) {
  const b = asBody(body);
  if (typeof b.devicetype !== 'string' || b.devicetype === '')
    return [{ error: { type: 5, address: '/', description: 'invalid/missing parameters in body' } }];
  if (now() - linkAt > HUE_LINK_BUTTON_WINDOW_MS)
    return [{ error: { type: 101, address: '', description: 'link button not pressed' } }];
  const username = crypto.randomUUID();
  state.appKeys.add(username);
  const success: Record<string, string> = { username };
  if (withClientKey && b.generateclientkey === true)
    success.clientkey = crypto.randomBytes(16).toString('hex').toUpperCase();
  return [{ success }];
}

/**
 * The CLIP v2 resources, in their own scope: the local bridge (application key only) and the
 * remote API below `/route` (`requireBearer`: an OAuth access token as well).
 */
export function registerClipRoutes(
  scope: FastifyInstance,
  state: HueState,
  now: Clock,
  requireBearer: boolean,
): void {
  scope.addHook('onRequest', async (request, reply) => {
    if (state.offline) {
      // A bridge that vanished: the connection just drops.
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    if (requireBearer && !hasValidBearer(request, state, now))
      return reply.code(401).send({
        fault: {
          faultstring: 'Invalid Access Token',
          detail: { errorcode: 'keymanagement.service.invalid_access_token' },
        },
      });
    const key = request.headers['hue-application-key'];
    if (typeof key !== 'string' || key === '') return clipError(reply, 403, 'Forbidden');
    if (!state.appKeys.has(key)) return clipError(reply, 401, 'unauthorized user');
  });
  scope.get('/clip/v2/resource/light', async () => ({ errors: [], data: state.lights.map(toClipLight) }));
  scope.get('/clip/v2/resource/zigbee_connectivity', async () => ({
    errors: [],
    data: state.lights.map(toClipConnectivity),
  }));
  scope.get('/clip/v2/resource/bridge', async () => ({
    errors: [],
    data: [
      {
        type: 'bridge',
        id: '7a1c5e2f-3b4d-4e6f-8a9b-0c1d2e3f4a5b',
        bridge_id: HUE_SIM_BRIDGE_ID,
        owner: { rid: '7a1c5e2f-3b4d-4e6f-8a9b-0c1d2e3f4a5c', rtype: 'device' },
        time_zone: { time_zone: 'Europe/Amsterdam' },
      },
    ],
  }));
  scope.get('/clip/v2/resource/light/:id', async (request, reply) => {
    const light = state.lights.find((l) => l.id === (request.params as { id: string }).id);
    if (!light) return clipError(reply, 404, 'Not Found');
    return { errors: [], data: [toClipLight(light)] };
  });
  scope.put('/clip/v2/resource/light/:id', async (request, reply) => {
    const light = state.lights.find((l) => l.id === (request.params as { id: string }).id);
    if (!light) return clipError(reply, 404, 'Not Found');
    const error = applyLightPut(light, request.body, now());
    if (error) return clipError(reply, 400, error);
    return { errors: [], data: [{ rid: light.id, rtype: 'light' }] };
  });
}

/** The remote API's link button and app key (`/route/api`), in their own scope: Bearer required. */
export function registerRemotePairingRoutes(remote: FastifyInstance, state: HueState, now: Clock): void {
  remote.addHook('onRequest', async (request, reply) => {
    if (!request.url.includes('/route/api')) return;
    if (!hasValidBearer(request, state, now))
      return reply.code(401).send({ fault: { faultstring: 'Invalid Access Token' } });
  });
  remote.put('/route/api/0/config', async (request) => {
    if (asBody(request.body).linkbutton === true) state.remoteLinkAt = now();
    return [{ success: { '/config/linkbutton': true } }];
  });
  remote.post('/route/api', async (request) =>
    pairApplication(state, now, request.body, state.remoteLinkAt, false),
  );
}
