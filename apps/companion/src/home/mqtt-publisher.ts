// The companion's MQTT connection: the played flag, its state and availability, retained, plus Home
// Assistant's discovery. A kept client library (MQTT.js) speaks the protocol; this file decides what
// is said and when, under a client id and topics of this companion's own (decision 035), over a
// socket that refuses packets over 1 MB (mqtt-stream.ts). Facts: reference/home-assistant-mqtt-wled.md §2.
import type { IClientOptions, MqttClient } from 'mqtt';
import type { Logger } from '../system/log.js';
import { MQTT_MAX_INCOMING_PACKET_BYTES, openBrokerStream } from './mqtt-stream.js';
import {
  discoveryConfigs,
  flagWord,
  mqttSafeId,
  mqttTopics,
  statePayload,
  type DiscoveryDevice,
  type MqttTopics,
  type PlayedFlag,
} from './mqtt-topics.js';

/** Reconnect back-off: 1 s doubling to 30 s (MQTT.js reads the period at each try). */
export const MQTT_RECONNECT_MIN_MS = 1_000;
export const MQTT_RECONNECT_MAX_MS = 30_000;
/** A killed companion reads offline within 1.5 × this on the broker (the will). */
export const MQTT_KEEPALIVE_S = 30;
/** How long a stop waits for the broker to acknowledge `offline`. */
export const MQTT_CLOSE_WAIT_MS = 2_000;

/** When the companion tries again, and how it tells a take-over from a lost broker (decision 035). */
export interface MqttTiming {
  reconnectMinMs: number;
  reconnectMaxMs: number;
  /** A connection the broker closes this soon after accepting it counts towards a take-over… */
  takeoverWindowMs: number;
  /** …and this many such closes in a row read as "another client took this connection". */
  takeoverCloses: number;
  /** Taken over: the back-off grows to this (the two clients stop kicking each other every second)… */
  takenOverMaxMs: number;
  /** …and only a connection held this long (longer than the other's longest wait) ends it. */
  stableMs: number;
}

export const MQTT_TIMING: MqttTiming = {
  reconnectMinMs: MQTT_RECONNECT_MIN_MS,
  reconnectMaxMs: MQTT_RECONNECT_MAX_MS,
  takeoverWindowMs: 30_000,
  takeoverCloses: 3,
  takenOverMaxMs: 5 * 60_000,
  stableMs: 6 * 60_000,
};

export interface MqttSettings {
  /** `mqtt://` or `mqtts://`, user and password allowed in it. */
  url: string;
  username?: string | undefined;
  password?: string | undefined;
}

export type MqttState = 'connecting' | 'connected' | 'reconnecting' | 'refused' | 'taken-over' | 'closed';

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

export interface MqttPublisherOptions {
  timing?: Partial<MqttTiming>;
  /**
   * The id an older version published under (the name alone): its retained topics and discovery are
   * cleared on the first connect, then `cleared` is called so it happens once (decision 035).
   */
  legacy?: { id: string; cleared(): void } | null;
  /** The largest packet taken from the broker. */
  maxIncomingPacketBytes?: number;
  load?: () => Promise<ClientClass>;
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

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

type ClientClass = typeof MqttClient;

/**
 * MQTT.js is loaded when a broker is configured, not at start: its modules are a few megabytes of a
 * companion's memory, and most companions never talk MQTT.
 */
const loadClient = async (): Promise<ClientClass> => (await import('mqtt')).MqttClient;

/**
 * Tells "another client took this connection" from a lost broker. MQTT 3.1.1 says nothing when the
 * broker drops a client for a newer one with its client id: the sign is a connection closed soon
 * after each connect, again and again, while the broker stays reachable.
 */
function createTakeoverWatch(timing: MqttTiming) {
  let closes = 0;
  let takenOver = false;
  /** Running while a connection is younger than the time that clears suspicion. */
  let held: NodeJS.Timeout | null = null;
  const stop = () => {
    if (held) clearTimeout(held);
    held = null;
  };
  return {
    takenOver: () => takenOver,
    /** Connected: `onHeld` once the connection has lasted long enough to end a take-over. */
    connected(onHeld: (wasTakenOver: boolean) => void) {
      held = setTimeout(
        () => {
          held = null;
          const was = takenOver;
          closes = 0;
          takenOver = false;
          onHeld(was);
        },
        takenOver ? timing.stableMs : timing.takeoverWindowMs,
      );
      held.unref();
    },
    /** Closed; `byBroker` false when the companion dropped it. True when a take-over starts now. */
    closed(byBroker: boolean): boolean {
      const early = held !== null;
      stop();
      if (!early || !byBroker || takenOver) return false;
      closes += 1;
      if (closes < timing.takeoverCloses) return false;
      takenOver = true;
      return true;
    },
    stop,
  };
}

function clientOptionsFor(
  settings: MqttSettings,
  clientId: string,
  topics: MqttTopics,
  timing: MqttTiming,
): IClientOptions {
  return {
    clientId,
    keepalive: MQTT_KEEPALIVE_S,
    reconnectPeriod: timing.reconnectMinMs,
    connectTimeout: 10_000,
    // A flag published while the broker is away is stale by the time it is back: on every connect
    // the current state is published again instead.
    queueQoSZero: false,
    will: { topic: topics.availability, payload: Buffer.from('offline'), qos: 1, retain: true },
    ...(settings.username !== undefined ? { username: settings.username } : {}),
    ...(settings.password !== undefined ? { password: settings.password } : {}),
  };
}

function takeoverMessage(broker: string, clientId: string, closes: number): string {
  return (
    `Another client took this connection: ${broker} closed it right after each connect, ${closes} times in a row, ` +
    `as a broker does when a second client connects with the same client id (${clientId}). ` +
    'Is this companion running twice, or copied with its data folder? Trying again less often.'
  );
}

/** Empty retained messages delete what an older version left under the name alone; once acknowledged, never again. */
function clearLegacyTopics(
  c: MqttClient,
  legacy: NonNullable<MqttPublisherOptions['legacy']>,
  now: MqttTopics,
  log: Logger,
  onCleared: () => void,
): void {
  const was = mqttTopics(legacy.id);
  const stale = [was.flagConfig, was.sessionConfig, was.flag, was.state, was.availability];
  let left = stale.length;
  let failed = false;
  for (const topic of stale)
    c.publish(topic, '', { qos: 1, retain: true }, (error) => {
      failed ||= Boolean(error);
      left -= 1;
      if (left > 0 || failed) return;
      onCleared();
      legacy.cleared();
      log.info(`MQTT: removed what an older version published under ${was.base}/ (now ${now.base}/).`);
    });
}

/**
 * A clean stop says offline itself (a clean DISCONNECT sends no will). A broker that never
 * acknowledges does not hold the companion's stop: after a short wait it goes without.
 */
async function endClient(client: MqttClient, availability: string): Promise<void> {
  let acknowledged = false;
  if (client.connected) {
    const said = client.publishAsync(availability, 'offline', { qos: 1, retain: true });
    acknowledged = await Promise.race([
      said.then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => setTimeout(resolve, MQTT_CLOSE_WAIT_MS, false).unref()),
    ]);
  }
  await client.endAsync(!acknowledged).catch(() => {});
}

export function createMqttPublisher(
  settings: MqttSettings,
  device: DiscoveryDevice,
  log: Logger,
  options: MqttPublisherOptions = {},
): MqttPublisher {
  const timing: MqttTiming = { ...MQTT_TIMING, ...options.timing };
  const limit = options.maxIncomingPacketBytes ?? MQTT_MAX_INCOMING_PACKET_BYTES;
  const topics = mqttTopics(device.companionId);
  const broker = brokerLabel(settings.url);
  const clientId = `flaglight-${mqttSafeId(device.companionId)}`;
  const watch = createTakeoverWatch(timing);
  let legacy = options.legacy ?? null;
  let state: MqttState = 'connecting';
  let message: string | null = null;
  let lastPublishedAt: string | null = null;
  let current: PlayedFlag | null = null;
  let session: { key: number | null; name: string | null } = { key: null, name: null };
  let closed = false;
  /** Set when the companion itself dropped the connection (a packet over the limit). */
  let dropped: string | null = null;

  let client: MqttClient | null = null;
  const clientOptions = clientOptionsFor(settings, clientId, topics, timing);

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

  const onConnect = (c: MqttClient) => {
    // The CONNACK came in the chunk that announced a packet over the limit: that socket is gone.
    if (dropped !== null) return;
    const was = state;
    if (!watch.takenOver()) {
      state = 'connected';
      message = null;
    }
    watch.connected((wasTakenOver) => {
      c.options.reconnectPeriod = timing.reconnectMinMs;
      if (!wasTakenOver || closed) return;
      state = 'connected';
      message = null;
      log.info(`MQTT: ${broker} has kept this connection; no other client is taking it now.`);
    });
    log.info(`MQTT: ${was === 'connecting' ? 'connected to' : 'connected again to'} ${broker}.`);
    // A restarted broker (or Home Assistant) has lost what is not retained: everything again.
    if (legacy !== null) clearLegacyTopics(c, legacy, topics, log, () => (legacy = null));
    publish(topics.availability, 'online');
    for (const config of discoveryConfigs(device)) publish(config.topic, JSON.stringify(config.payload));
    publishState();
  };

  const onClose = (c: MqttClient) => {
    const startsTakeover = watch.closed(dropped === null);
    if (closed) return;
    if (startsTakeover) {
      state = 'taken-over';
      message = takeoverMessage(broker, clientId, timing.takeoverCloses);
      log.warn(`MQTT: ${message}`);
    } else if (state === 'connected' && dropped === null) {
      log.warn(`MQTT: lost ${broker}; reconnecting.`);
    }
    if (state !== 'refused' && state !== 'taken-over') state = 'reconnecting';
    message ??= dropped ?? `The MQTT broker ${broker} is not reachable: trying again.`;
    // Back off: 1 s, 2 s, 4 s … 30 s between tries while the broker stays away (or refuses); up to
    // 5 minutes while another client holds the connection.
    const max = watch.takenOver() ? timing.takenOverMaxMs : timing.reconnectMaxMs;
    c.options.reconnectPeriod = Math.min(max, (c.options.reconnectPeriod ?? timing.reconnectMinMs) * 2);
    dropped = null;
  };

  const onOversize = (size: number | null) => {
    const what = size === null ? 'a packet with a malformed length' : `a packet of ${megabytes(size)}`;
    dropped = `The MQTT broker ${broker} sent ${what}, over the ${megabytes(limit)} limit: dropped it and closed the connection; trying again.`;
    message = dropped;
    log.warn(`MQTT: ${dropped}`);
  };

  function listen(c: MqttClient): void {
    c.on('connect', () => onConnect(c));
    c.on('error', (error: Error & { code?: unknown }) => {
      const refused = refusal(error);
      if (refused !== null) {
        if (state !== 'refused') log.warn(`MQTT: ${broker} ${refused}`);
        state = 'refused';
        message = refused;
        return;
      }
      if (state === 'taken-over') return;
      message = `The MQTT broker ${broker} is not reachable (${error.message}): trying again.`;
    });
    c.on('close', () => onClose(c));
  }

  const started = (options.load ?? loadClient)().then(
    (Client) => {
      if (closed) return;
      client = new Client(() => openBrokerStream(settings.url, onOversize, limit), clientOptions);
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
      watch.stop();
      await started;
      if (!client) return;
      await endClient(client, topics.availability);
    },
  };
}
