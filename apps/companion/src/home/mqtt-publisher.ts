// The companion's MQTT connection: the played flag, its state and availability, retained, plus Home
// Assistant's discovery. A kept client library (MQTT.js) speaks the protocol; this file decides what
// is said and when. Facts: reference/home-assistant-mqtt-wled.md §2.
import type { IClientOptions, MqttClient } from 'mqtt';
import type { Logger } from '../system/log.js';
import {
  discoveryConfigs,
  flagWord,
  mqttSafeId,
  mqttTopics,
  statePayload,
  type DiscoveryDevice,
  type PlayedFlag,
} from './mqtt-topics.js';

/** Reconnect back-off: 1 s doubling to 30 s (MQTT.js reads the period at each try). */
export const MQTT_RECONNECT_MIN_MS = 1_000;
export const MQTT_RECONNECT_MAX_MS = 30_000;
/** A killed companion reads offline within 1.5 × this on the broker (the will). */
export const MQTT_KEEPALIVE_S = 30;

export interface MqttSettings {
  /** `mqtt://` or `mqtts://`, user and password allowed in it. */
  url: string;
  username?: string | undefined;
  password?: string | undefined;
}

export type MqttState = 'connecting' | 'connected' | 'reconnecting' | 'refused' | 'closed';

export interface MqttStatus {
  state: MqttState;
  /** The broker, without user or password. */
  broker: string;
  /** A line for the status page when something is wrong. */
  message: string | null;
  topic: string;
  lastPublishedAt: string | null;
}

export interface MqttPublisher {
  /** The lights played this flag now (or the session ended: null). */
  played(flag: PlayedFlag | null): void;
  /** The followed session's key and name, for the state document. */
  session(session: { key: number | null; name: string | null }): void;
  status(): MqttStatus;
  close(): Promise<void>;
}

/** `mqtt://user:pass@host:1883` → the broker without its secrets, for logs and the status page. */
export function brokerLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'the MQTT broker';
  }
}

/** What a refused CONNECT means to a fan (CONNACK 4 bad user name or password, 5 not authorized). */
function refusal(error: Error & { code?: unknown }): string | null {
  if (error.code === 4 || error.code === 5 || error.code === 134 || error.code === 135)
    return 'The MQTT broker refused the user name or password: check FLAGLIGHT_MQTT_USERNAME / _PASSWORD or the address.';
  return null;
}

type Connect = (url: string, options: IClientOptions) => MqttClient;

/**
 * MQTT.js is loaded when a broker is configured, not at start: its modules are a few megabytes of a
 * companion's memory, and most companions never talk MQTT.
 */
const loadConnect = async (): Promise<Connect> => (await import('mqtt')).connect;

export function createMqttPublisher(
  settings: MqttSettings,
  device: DiscoveryDevice,
  log: Logger,
  load: () => Promise<Connect> = loadConnect,
): MqttPublisher {
  const topics = mqttTopics(device.companionId);
  const broker = brokerLabel(settings.url);
  let state: MqttState = 'connecting';
  let message: string | null = null;
  let lastPublishedAt: string | null = null;
  let current: PlayedFlag | null = null;
  let session: { key: number | null; name: string | null } = { key: null, name: null };
  let closed = false;

  let client: MqttClient | null = null;
  const options: IClientOptions = {
    clientId: `flaglight-${mqttSafeId(device.companionId)}`,
    keepalive: MQTT_KEEPALIVE_S,
    reconnectPeriod: MQTT_RECONNECT_MIN_MS,
    connectTimeout: 10_000,
    // A flag published while the broker is away is stale by the time it is back: on every connect
    // the current state is published again instead.
    queueQoSZero: false,
    will: { topic: topics.availability, payload: Buffer.from('offline'), qos: 1, retain: true },
    ...(settings.username !== undefined ? { username: settings.username } : {}),
    ...(settings.password !== undefined ? { password: settings.password } : {}),
  };

  const publish = (topic: string, payload: string) => {
    if (!client?.connected) return;
    client.publish(topic, payload, { qos: 1, retain: true }, (error) => {
      if (error) log.warn(`MQTT: could not publish ${topic} (${error.message}).`);
    });
    lastPublishedAt = new Date().toISOString();
  };

  const publishState = () => {
    publish(topics.flag, flagWord(current?.data ?? null));
    publish(topics.state, JSON.stringify(statePayload(current, session)));
  };

  function listen(c: MqttClient): void {
    c.on('connect', () => {
      const was = state;
      state = 'connected';
      message = null;
      c.options.reconnectPeriod = MQTT_RECONNECT_MIN_MS;
      log.info(`MQTT: ${was === 'reconnecting' ? 'connected again to' : 'connected to'} ${broker}.`);
      // A restarted broker (or Home Assistant) has lost what is not retained: everything again.
      publish(topics.availability, 'online');
      for (const config of discoveryConfigs(device)) publish(config.topic, JSON.stringify(config.payload));
      publishState();
    });
    c.on('error', (error: Error & { code?: unknown }) => {
      const refused = refusal(error);
      if (refused !== null) {
        if (state !== 'refused') log.warn(`MQTT: ${broker} ${refused}`);
        state = 'refused';
        message = refused;
        return;
      }
      message = `The MQTT broker ${broker} is not reachable (${error.message}): trying again.`;
    });
    c.on('close', () => {
      if (closed) return;
      if (state === 'connected') log.warn(`MQTT: lost ${broker}; reconnecting.`);
      if (state !== 'refused') state = 'reconnecting';
      message ??= `The MQTT broker ${broker} is not reachable: trying again.`;
      // Back off: 1 s, 2 s, 4 s … 30 s between tries while the broker stays away (or refuses).
      c.options.reconnectPeriod = Math.min(
        MQTT_RECONNECT_MAX_MS,
        (c.options.reconnectPeriod ?? MQTT_RECONNECT_MIN_MS) * 2,
      );
    });
  }

  const started = load().then(
    (connect) => {
      if (closed) return;
      client = connect(settings.url, options);
      listen(client);
    },
    (error: Error) => {
      state = 'refused';
      message = `MQTT could not start (${error.message}).`;
      log.warn(`MQTT: ${message}`);
    },
  );

  return {
    played(flag) {
      current = flag;
      publishState();
    },
    session(next) {
      if (next.key === session.key && next.name === session.name) return;
      session = next;
      publishState();
    },
    status: () => ({ state, broker, message, topic: topics.base, lastPublishedAt }),
    async close() {
      closed = true;
      state = 'closed';
      await started;
      if (!client) return;
      if (client.connected) {
        // A clean stop says offline itself (a clean DISCONNECT sends no will).
        await client.publishAsync(topics.availability, 'offline', { qos: 1, retain: true }).catch(() => {});
      }
      await client.endAsync().catch(() => {});
    },
  };
}
