// The composition root's cloud light steps: Hue's remote API and Govee's cloud, per user.
import type { LookSet } from '@flaglight/core';
import type { ContextBasics } from './context-basics.js';
import { createGoveeCloudClient } from './govee/client.js';
import { createGoveeService } from './govee/service.js';
import { createBrowserBinding } from './hue/browser-binding.js';
import { createHueRemoteClient } from './hue/client.js';
import { createSecretBox } from './hue/crypto.js';
import { createHueService } from './hue/service.js';

/** The account's look set, as its stored preferences have it: what the server's players play. */
export type LooksOf = (userId: string) => Promise<LookSet | undefined>;

/**
 * Hue remote API: the real one (HUE_API_URL, default api.meethue.com) or the demo simulator, which
 * the browser reaches on the app's own origin and the server on the internal loopback.
 */
export function buildHue(
  { config, options, logger, now, db, sims, simUrl }: ContextBasics,
  appSecret: string,
  looksOf?: LooksOf,
) {
  const clientId = config.hue.clientId ?? (config.hue.apiUrl ? undefined : sims?.hue.clientId);
  const clientSecret = config.hue.clientSecret ?? (config.hue.apiUrl ? undefined : sims?.hue.clientSecret);
  const apiUrl = config.hue.apiUrl ?? simUrl('hue');
  const authorizeBase = (appOrigin: string) => config.hue.apiUrl ?? `${appOrigin}/sims/hue`;
  const service = createHueService({
    db,
    box: createSecretBox(appSecret),
    binding: createBrowserBinding(appSecret),
    client:
      clientId && clientSecret
        ? createHueRemoteClient({
            apiUrl,
            clientId,
            clientSecret,
            ...(options.hueTimeoutMs === undefined ? {} : { timeoutMs: options.hueTimeoutMs }),
          })
        : undefined,
    clientId,
    authorizeBase,
    logger,
    now,
    looksOf,
  });
  return { service, authorizeBase };
}

/** Govee's cloud: the real one (GOVEE_API_URL, default openapi.api.govee.com) or the simulator. */
export function buildGovee(
  { config, options, logger, now, db, simUrl }: ContextBasics,
  appSecret: string,
  looksOf?: LooksOf,
) {
  return createGoveeService({
    db,
    box: createSecretBox(appSecret, 'govee-api-key-encryption-v1'),
    client: createGoveeCloudClient({
      apiUrl: config.govee.apiUrl ?? simUrl('govee'),
      ...(options.goveeTimeoutMs === undefined ? {} : { timeoutMs: options.goveeTimeoutMs }),
    }),
    logger,
    now,
    looksOf,
  });
}
