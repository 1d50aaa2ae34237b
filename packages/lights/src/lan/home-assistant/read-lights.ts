import { refusalError } from '../skeleton/lan-errors.js';
import { homeAssistantMessage, type HomeAssistantAnswer } from './http.js';
import type { HomeAssistantRequester } from './link.js';
import {
  HOME_ASSISTANT_AREA_TEMPLATE,
  parseHomeAssistantAreas,
  parseHomeAssistantLights,
  type HomeAssistantLight,
} from './looks.js';

/** What one read found: the lights with their areas, or the status that refused the token (401, 403). */
export type HomeAssistantRead = { lights: HomeAssistantLight[] } | { refused: number };

const isRefusal = (status: number) => status === 401 || status === 403;

/**
 * Checks the token (`GET /api/`), reads the states and, where the token may, each light's area.
 * Rejects with a `LightError` when Home Assistant did not answer or answered with another error.
 */
export async function readHomeAssistantLights(request: HomeAssistantRequester): Promise<HomeAssistantRead> {
  const check = await request({ method: 'GET', path: '/api/' });
  if (isRefusal(check.status)) return { refused: check.status };
  if (check.status !== 200) throw answerError(check, 'GET /api/');
  const states = await request({ method: 'GET', path: '/api/states' });
  if (isRefusal(states.status)) return { refused: states.status };
  if (states.status !== 200) throw answerError(states, 'GET /api/states');
  const found = parseHomeAssistantLights(states.body);
  let areas = new Map<string, string>();
  // Areas need an administrator's token: without one (401 here only) the lights have none.
  const template = await request({
    method: 'POST',
    path: '/api/template',
    body: { template: HOME_ASSISTANT_AREA_TEMPLATE },
  }).catch(() => null);
  if (template?.status === 200) areas = parseHomeAssistantAreas(template.text);
  return { lights: found.map((l) => ({ ...l, area: areas.get(l.entityId) ?? null })) };
}

function answerError(answer: HomeAssistantAnswer, what: string) {
  return refusalError(
    answer.status,
    `Home Assistant answered ${what} with HTTP ${answer.status}: ${homeAssistantMessage(answer)}`,
  );
}
