import { z } from 'zod';
import { defineRoute } from '../define.js';
import { errors } from '../errors.js';

export const PublicConfigSchema = z
  .object({
    mode: z.enum(['demo', 'live']),
    turnstile: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('demo'), siteKey: z.string(), tokenUrl: z.string() }),
      z.object({ kind: z.literal('cloudflare'), siteKey: z.string() }),
    ]),
    lifxApiUrl: z.string(),
    supportEmail: z.string(),
    /** Demo mode: the recorded race its live session replays (the dashboard says so, never "live"). */
    demoRecording: z.string().optional(),
  })
  .meta({ id: 'PublicConfig' });
export type PublicConfig = z.infer<typeof PublicConfigSchema>;

export const metaRoutes = {
  health: defineRoute({
    method: 'GET',
    path: '/api/health',
    auth: 'public',
    summary: 'Liveness check',
    tags: ['meta'],
    responses: { 200: z.object({ ok: z.literal(true) }), ...errors(429) },
  }),
  config: defineRoute({
    method: 'GET',
    path: '/api/config',
    auth: 'public',
    summary: 'The public part of the server configuration the browser needs',
    tags: ['meta'],
    responses: { 200: PublicConfigSchema, ...errors(429) },
  }),
  download: defineRoute({
    method: 'GET',
    path: '/api/downloads/:product',
    auth: 'public',
    summary:
      'Download a desktop build: flaglight-setup (Windows installer), flaglight-linux (Linux x64 executable), flaglight-linux-arm64 (Linux arm64 executable: a Raspberry Pi with a 64-bit OS), flaglight-companion-win-x64 (the bare Windows executable, for updates), companion-manifest (the signed update manifest, JSON)',
    description:
      'Sends the file as an attachment, or a 404 page (JSON error when the client asks for JSON). One byte range (`Range: bytes=N-`) resumes a download (206, `Content-Range`; 416 past the end); a strong `ETag` answers `If-None-Match` with 304 and guards `If-Range`; `Cache-Control: public` lets a CDN or proxy keep it for a few minutes. Limited per client address.',
    tags: ['downloads'],
    params: z.object({ product: z.string() }),
    produces: 'application/octet-stream',
    responses: { ...errors(400, 404, 416, 429) },
  }),
  companionReleases: defineRoute({
    method: 'GET',
    path: '/api/downloads/companion-releases',
    auth: 'public',
    summary: 'The signed update manifests of the companion versions this server holds (newest first)',
    description:
      'Each entry is a whole signed manifest as `npm run package` wrote it; the server signs nothing and the companion verifies every entry on its own (decision 045). Its status page lists them so a fan can pick a version by hand.',
    tags: ['downloads'],
    responses: { 200: z.object({ manifests: z.array(z.unknown()) }), ...errors(429) },
  }),
  companionReleaseFile: defineRoute({
    method: 'GET',
    path: '/api/downloads/companion-releases/:version/:name',
    auth: 'public',
    summary:
      'One file of a kept companion version, by the name its signed manifest gives (e.g. flaglight-linux)',
    description: 'Served as `/api/downloads/:product` serves the newest build: ranges, ETag, a short cache.',
    tags: ['downloads'],
    params: z.object({ version: z.string(), name: z.string() }),
    produces: 'application/octet-stream',
    responses: { ...errors(400, 404, 416, 429) },
  }),
};
