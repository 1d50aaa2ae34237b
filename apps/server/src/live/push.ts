import { OPENF1_RACE_CONTROL_TOPIC as RACE_CONTROL_TOPIC } from '@flaglight/core';
import mqtt from 'mqtt';

/** How long a push connection may take to connect and subscribe before polling carries on alone. */
export const PUSH_CONNECT_TIMEOUT_MS = 10_000;

export interface PushHandlers {
  /** Connected and subscribed: from now on every new record arrives through onMessage. */
  onReady(): void;
  onMessage(record: unknown): void;
  /** The connection ended or could not be made; the follower reconnects on its own schedule. */
  onClosed(reason: string): void;
}

export interface PushConnection {
  close(): void;
}

export type PushConnector = (
  options: { url: string; username: string; token: string },
  handlers: PushHandlers,
) => PushConnection;

/**
 * MQTT (TCP or WebSocket) to OpenF1's broker, password = access token. mqtt.js' own reconnect is
 * off: the follower reconnects with a fresh token and its own (injectable) timers.
 */
export const connectMqttPush: PushConnector = (options, handlers) => {
  let closed = false;
  const client = mqtt.connect(options.url, {
    username: options.username,
    password: options.token,
    reconnectPeriod: 0,
    connectTimeout: PUSH_CONNECT_TIMEOUT_MS,
    clean: true,
  });
  const end = (reason: string) => {
    if (closed) return;
    closed = true;
    client.end(true);
    handlers.onClosed(reason);
  };
  client.on('connect', () => {
    client.subscribe(RACE_CONTROL_TOPIC, { qos: 0 }, (error) => {
      if (error) end(`subscribe failed: ${error.message}`);
      else if (!closed) handlers.onReady();
    });
  });
  client.on('message', (_topic, payload) => {
    if (closed) return;
    try {
      handlers.onMessage(JSON.parse(payload.toString('utf8')));
    } catch {
      // A record that is not JSON carries no flag; polling would not see it either.
    }
  });
  client.on('error', (error) => end(error.message));
  client.on('close', () => end('connection closed'));
  client.on('offline', () => end('offline'));
  return {
    close() {
      closed = true;
      client.end(true);
    },
  };
};
