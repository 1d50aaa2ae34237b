import crypto from 'node:crypto';
import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { type Clock } from '../shared/clock.js';
import { isAllowedRedirect, refuseRedirect } from '../shared/redirects.js';
import { asBody, HUE_CODE_TTL_MS, type HueSettings, type HueState } from './state.js';

const random = (bytes = 24) => crypto.randomBytes(bytes).toString('base64url');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Whether the request carries an access token the remote API issued and that has not expired. */
export function hasValidBearer(request: FastifyRequest, state: HueState, now: Clock): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  const expiresAt = m?.[1] ? state.accessTokens.get(m[1]) : undefined;
  return expiresAt !== undefined && now() < expiresAt;
}

function issueTokens(state: HueState, settings: HueSettings) {
  const tokenTtl = settings.accessTokenTtlSeconds;
  const access = random();
  const refresh = random();
  state.accessTokens.set(access, settings.now() + tokenTtl * 1000);
  state.refreshTokens.add(refresh);
  return { access_token: access, expires_in: tokenTtl, refresh_token: refresh, token_type: 'bearer' };
}

/**
 * The remote API's OAuth (reference §3): the authorize page with Allow / Deny, the decision
 * redirect with a code, and the token endpoint (Basic client auth, single-use codes and refresh tokens).
 */
export function registerHueOAuthRoutes(app: FastifyInstance, state: HueState, settings: HueSettings): void {
  const { now, clientId, clientSecret } = settings;

  app.get('/v2/oauth2/authorize', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    const redirectUri = q.redirect_uri ?? settings.redirectUri;
    if (q.client_id !== clientId)
      return reply.code(400).type('text/html; charset=utf-8').send('<h1>Unknown client_id</h1>');
    if (q.response_type !== 'code' || !redirectUri)
      return reply.code(400).type('text/html; charset=utf-8').send('<h1>Invalid authorization request</h1>');
    if (!isAllowedRedirect(redirectUri, request, settings.appOrigins)) return refuseRedirect(reply);
    const hidden = (name: string, value: string) =>
      `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
    const fields =
      hidden('client_id', clientId) + hidden('state', q.state ?? '') + hidden('redirect_uri', redirectUri);
    return reply.type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hue — authorise Flaglight</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;text-align:center}button{font-size:1rem;padding:.5rem 1.5rem;margin:.5rem}</style></head>
<body><h1>Allow Flaglight to control your Hue lights?</h1>
<p>Flaglight will be able to read and change your lights through the Hue remote API (simulator).</p>
<form method="get" action="decision">${fields}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form></body></html>`);
  });

  app.get('/v2/oauth2/decision', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    if (q.client_id !== clientId || !q.redirect_uri)
      return reply.code(400).send({ error: 'invalid_request' });
    if (!isAllowedRedirect(q.redirect_uri, request, settings.appOrigins)) return refuseRedirect(reply);
    const target = new URL(q.redirect_uri);
    if (q.decision === 'allow') {
      const code = random(16);
      state.codes.set(code, { redirectUri: q.redirect_uri, expiresAt: now() + HUE_CODE_TTL_MS });
      target.searchParams.set('code', code);
    } else {
      target.searchParams.set('error', 'access_denied');
    }
    target.searchParams.set('state', q.state ?? '');
    return reply.redirect(target.toString(), 302);
  });

  app.post('/v2/oauth2/token', async (request, reply) => {
    const m = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const [id, secret] = m?.[1] ? Buffer.from(m[1], 'base64').toString('utf8').split(':') : [];
    if (id !== clientId || secret !== clientSecret)
      return reply
        .code(401)
        .send({ error: 'invalid_client', error_description: 'Client authentication failed' });
    const body = asBody(request.body);
    if (body.grant_type === 'authorization_code') {
      const entry = typeof body.code === 'string' ? state.codes.get(body.code) : undefined;
      if (!entry || now() > entry.expiresAt)
        return reply
          .code(400)
          .send({ error: 'invalid_grant', error_description: 'Invalid authorization code' });
      state.codes.delete(body.code as string);
      return issueTokens(state, settings);
    }
    if (body.grant_type === 'refresh_token') {
      const rt = body.refresh_token;
      if (typeof rt !== 'string' || !state.refreshTokens.has(rt))
        return reply.code(400).send({ error: 'invalid_grant', error_description: 'Invalid refresh token' });
      state.refreshTokens.delete(rt); // single use
      return issueTokens(state, settings);
    }
    return reply.code(400).send({ error: 'unsupported_grant_type' });
  });
}
