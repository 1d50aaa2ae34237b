import type { FastifyInstance } from 'fastify';
import { asBody } from './control-body.js';
import type { LocalHueBridge } from './hue-bridge.js';

/** The virtual lights page's swatch of each light of the local Hue bridge. */
export function hueSwatches(hueBridge: LocalHueBridge, now: () => number) {
  return hueBridge.view().lights.map((l) => ({
    id: l.id,
    label: `Hue ${l.name}`,
    on: l.on,
    hex: l.hex,
    brightness: l.brightness / 100,
    effect: l.lastSignal && l.lastSignal.at + l.lastSignal.durationMs > now() ? l.lastSignal.signal : null,
  }));
}

/** `POST /_control/hue/link-button` · `GET /_control/hue/commands` · `POST /_control/hue/move {port?, silentMs?}`. */
export function registerHueControl(app: FastifyInstance, hueBridge: LocalHueBridge): void {
  app.post('/_control/hue/link-button', async () => {
    hueBridge.pressLinkButton();
    return { linkButton: true };
  });
  app.get('/_control/hue/commands', async () => ({ commands: hueBridge.commands() }));
  // A new address for the bridge (its DHCP lease): same id, certificate and keys, the old port silent.
  app.post('/_control/hue/move', async (request, reply) => {
    const body = asBody(request.body);
    const port = body.port ?? 0;
    const silentMs = body.silentMs ?? 0;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65_535)
      return reply.code(400).send({ error: 'port is a whole number from 0 (any free one) to 65535' });
    if (typeof silentMs !== 'number' || !Number.isInteger(silentMs) || silentMs < 0 || silentMs > 600_000)
      return reply.code(400).send({ error: 'silentMs is a whole number of milliseconds up to 600000' });
    try {
      return { hueBridge: await hueBridge.move(port, { silentMs }) };
    } catch (error) {
      return reply.code(409).send({ error: error instanceof Error ? error.message : String(error) });
    }
  });
}
