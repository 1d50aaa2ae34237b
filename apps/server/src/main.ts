import { buildApp } from './app.js';
import { ensureDemoAdmin } from './auth/demo-admin.js';
import { ConfigError, parseConfig } from './config.js';
import { createContext } from './context.js';
import { createLogger } from './http/logging.js';

const SHUTDOWN_GRACE_MS = 10_000;

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

async function main(): Promise<void> {
  let config;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const startedAt = performance.now();
  const logger = createLogger(config, { pretty: process.stdout.isTTY && !config.production });
  const context = await createContext(config, { logger });
  const app = await buildApp({ context, logRequests: true });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  if (config.mode === 'demo' && config.hostFromEnv && !isLoopback(config.host)) {
    app.log.warn(
      `HOST=${config.host}: demo mode is reachable from the network, and so are its simulators ` +
        '(/sims/mail shows every password-reset link, /sims/*/_control drives them). ' +
        'Unset HOST to listen on 127.0.0.1 only.',
    );
  }
  const admin = await ensureDemoAdmin(context);
  app.log.info(
    {
      mode: config.mode,
      database: config.database.kind,
      startupMs: Math.round(performance.now() - startedAt),
    },
    `Flaglight is running in ${config.mode} mode at ${config.publicUrl}`,
  );
  if (admin) {
    app.log.info(`Demo admin account: ${admin.email} / ${admin.password} (sign in, then open Admin)`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Flaglight failed to start: ${error.message}` : error);
  process.exit(1);
});
