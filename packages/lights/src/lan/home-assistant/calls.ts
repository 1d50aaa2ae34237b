import type { LanKit } from '../skeleton/lan-adapter.js';
import { refusalError, asLightError } from '../skeleton/lan-errors.js';
import type { HomeAssistantEntityError } from './driver-types.js';
import { homeAssistantMessage, type HomeAssistantAnswer } from './http.js';
import type { HomeAssistantLink } from './link.js';
import type { HomeAssistantCall, HomeAssistantLight } from './looks.js';

export interface HomeAssistantCalls {
  /** Sends one service call of the queue; never rejects (what went wrong is reported). */
  send: (entityId: string, call: HomeAssistantCall) => Promise<void>;
  /** Entities whose last call HA refused, among the ones listed now. */
  entityErrors(listed: (entityId: string) => boolean): HomeAssistantEntityError[];
}

/**
 * The service calls of the skeleton's queue: a refused token stops the driver, silence marks Home
 * Assistant unreachable, and a 400 or 5xx is reported with the entity's name while the others go on.
 */
export function createHomeAssistantCalls(options: {
  kit: LanKit<HomeAssistantCall>;
  link: HomeAssistantLink;
  paceMs: number;
  lightOf: (entityId: string) => HomeAssistantLight | undefined;
}): HomeAssistantCalls {
  const { kit, link, paceMs } = options;
  const errors = new Map<string, HomeAssistantEntityError>();

  function entityFailed(light: HomeAssistantLight, answer: HomeAssistantAnswer, service: string): void {
    const message = `Home Assistant refused ${service} for ${light.name} (${light.entityId}): HTTP ${answer.status}, ${homeAssistantMessage(answer)}`;
    errors.set(light.entityId, { entityId: light.entityId, name: light.name, message });
    kit.log(message);
    kit.events.emit({ type: 'error', error: refusalError(answer.status, message).toJSON() });
  }

  async function send(entityId: string, call: HomeAssistantCall): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      let answer: HomeAssistantAnswer;
      try {
        answer = await link.request({
          method: 'POST',
          path: `/api/services/light/${call.service}`,
          body: call.body,
        });
      } catch (error) {
        link.unreachable(asLightError(error));
        return;
      }
      if (answer.status === 401 || answer.status === 403) return link.refused(answer.status);
      if (answer.status >= 200 && answer.status < 300) {
        errors.delete(entityId);
        return;
      }
      // A 5xx is the device or its integration failing: tried once more, unless a newer look waits.
      const fresh = () => kit.queue.waiting(entityId) === 0 && link.usable();
      if (answer.status >= 500 && attempt === 1 && fresh()) {
        await new Promise<void>((resolve) => kit.timers.setTimeout(resolve, paceMs));
        if (fresh()) continue;
        return;
      }
      const light = options.lightOf(entityId);
      if (light) entityFailed(light, answer, call.service);
      return;
    }
  }

  return {
    send,
    entityErrors: (listed) => [...errors.values()].filter((e) => listed(e.entityId)).map((e) => ({ ...e })),
  };
}
