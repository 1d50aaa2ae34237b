import type { FastifyInstance } from 'fastify';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/health', { config: { rateLimit: false } }, async () => ({ ok: true }));
}
