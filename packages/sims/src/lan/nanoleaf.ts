import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LAN_SIM_HOST } from './lan-host.js';
import {
  createNanoleafLight,
  currentLook,
  panelColors,
  resetNanoleafLook,
  shownBrightness,
} from './nanoleaf-light.js';
import { handleNanoleafRequest, type NanoleafController } from './nanoleaf-routes.js';
import type { NanoleafSimDevice, NanoleafSimFault, NanoleafSimOptions } from './nanoleaf-types.js';

export { parseAnimData } from './nanoleaf-anim-data.js';
export type {
  NanoleafSimDevice,
  NanoleafSimEffect,
  NanoleafSimFault,
  NanoleafSimOptions,
  NanoleafSimPanel,
  NanoleafSimRequest,
  NanoleafSimView,
} from './nanoleaf-types.js';

/** Holding the power button 5–7 s opens pairing for about this long (reference §1 "Pairing"). */
export const NANOLEAF_SIM_PAIRING_WINDOW_MS = 30_000;

/**
 * A Nanoleaf controller on the LAN (reference §1, §3): its OpenAPI over plain HTTP on 127.0.0.1,
 * pairing by the power-button gesture (a control hook), several tokens, `/state` with ranges,
 * `/effects` with strictly parsed animData played on a virtual clock, `/identify`, and faults:
 * dropped connections, a slow answer, offline, another serial number. Not simulated: extControl streaming and events.
 */
export async function startNanoleafSim(options: NanoleafSimOptions = {}): Promise<NanoleafSimDevice> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const light = createNanoleafLight({
    now,
    name: options.name ?? 'Shapes 4A1B',
    serialNo: options.serialNo ?? `S${crypto.randomBytes(5).toString('hex').toUpperCase()}`,
    model: options.model ?? 'NL42',
    panelCount: options.panelCount ?? 7,
    firstLook: options.firstLook,
  });
  const { name, serialNo, model } = light;
  const controller: NanoleafController = {
    light,
    tokens: new Set<string>(),
    pairingUntil: -Infinity,
    log: [],
    counts: { total: 0, state: 0, effects: 0 },
    identifiedAt: null,
  };
  const noFault = (): NanoleafSimFault => ({ dropPercent: 0, delayMs: 0, offline: false, serialNo: null });
  let fault = noFault();

  const server = http.createServer((request, response) => {
    if (fault.offline || (fault.dropPercent > 0 && random() * 100 < fault.dropPercent)) {
      request.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = () => {
        if (fault.offline) {
          request.socket.destroy();
          return;
        }
        handleNanoleafRequest(controller, request, Buffer.concat(chunks).toString('utf8'), response);
      };
      if (fault.delayMs > 0) setTimeout(answer, fault.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LAN_SIM_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${LAN_SIM_HOST}:${port}`;
  const id = serialNo.toLowerCase();

  return {
    id,
    host: LAN_SIM_HOST,
    port,
    url,
    holdButton() {
      controller.pairingUntil = now() + NANOLEAF_SIM_PAIRING_WINDOW_MS;
    },
    revokeTokens: () => controller.tokens.clear(),
    setFault(patch) {
      fault = { ...fault, ...patch };
      light.serialNo = fault.serialNo ?? serialNo;
      // Connections kept alive from before must not carry on past "offline".
      if (fault.offline) server.closeIdleConnections();
      return { ...fault };
    },
    view() {
      const l = currentLook(light);
      return {
        id,
        name,
        model,
        serialNo,
        host: LAN_SIM_HOST,
        port,
        url,
        pairing: now() <= controller.pairingUntil,
        tokens: controller.tokens.size,
        on: l.on,
        brightness: shownBrightness(light, l),
        hue: l.hue,
        sat: l.sat,
        ct: l.ct,
        colorMode: l.colorMode,
        select: l.select,
        effect: l.effect,
        panels: panelColors(light),
        identifiedAt: controller.identifiedAt,
        fault: { ...fault },
        requests: { ...controller.counts },
      };
    },
    requests: () => [...controller.log],
    reset() {
      resetNanoleafLook(light);
      fault = noFault();
      light.serialNo = serialNo;
      controller.log = [];
      controller.counts = { total: 0, state: 0, effects: 0 };
      controller.pairingUntil = -Infinity;
      controller.identifiedAt = null;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
