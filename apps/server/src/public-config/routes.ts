import { api, PUBLIC_READS_PER_MINUTE, type PublicConfig } from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import { DEMO_RECORDING_NAME } from '../demo/race.js';
import type { DemoSims } from '../demo/sims.js';
import { fromContract } from '../http/contract-route.js';

/** The named public subset of the configuration that the browser may know (CONVENTIONS.md). */
export async function publicConfigRoutes(
  app: FastifyInstance,
  opts: { config: Config; sims: DemoSims | undefined },
) {
  const { config } = opts;
  const body: PublicConfig = {
    mode: config.mode,
    turnstile:
      config.mode === 'demo'
        ? {
            kind: 'demo' as const,
            siteKey: opts.sims?.turnstile.siteKey ?? '',
            tokenUrl: '/sims/turnstile/token',
          }
        : { kind: 'cloudflare' as const, siteKey: config.turnstile.siteKey ?? '' },
    lifxApiUrl: config.lifx.apiUrl,
    supportEmail: config.supportEmail,
    ...(config.mode === 'demo' ? { demoRecording: DEMO_RECORDING_NAME } : {}),
  };
  app.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(api.meta.config, { rateLimitPerMinute: PUBLIC_READS_PER_MINUTE }),
    handler: async () => body,
  });
}
