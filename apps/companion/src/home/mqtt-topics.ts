// What the companion tells an MQTT broker: one word for the flag, a JSON state, its availability,
// and Home Assistant's discovery configs, so the entities appear in Home Assistant by themselves and
// any automation (Node-RED, Homey, openHAB) can follow the flag too.
import type { FlagEventData } from '@flaglight/core';

/** The flag as one word, as automations match it. `none` outside a session. */
export const MQTT_FLAG_WORDS = [
  'green',
  'yellow',
  'double_yellow',
  'red',
  'safety_car',
  'vsc',
  'vsc_ending',
  'chequered',
  'fastest_lap',
  'none',
] as const;
export type MqttFlagWord = (typeof MQTT_FLAG_WORDS)[number];

/** Home Assistant's discovery prefix (its default). */
export const DISCOVERY_PREFIX = 'homeassistant';

/** Topic names: MQTT forbids `+`, `#` and NUL when publishing, and HA ids are `[a-zA-Z0-9_-]`. */
export function mqttSafeId(value: string): string {
  const id = value.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return id === '' ? 'companion' : id;
}

/** The companion's name as an id, alone: what versions before decision 035 published under. */
export function deriveNameMqttId(name: string): string {
  return mqttSafeId(name.toLowerCase());
}

/**
 * The id a companion publishes under (`flaglight/<id>/…`, client id `flaglight-<id>`): its name,
 * readable, and the random suffix kept in its data folder, so two companions whose names clean to
 * the same id ("Living Room", "living/room", two Pis called raspberrypi) never share topics or a
 * client id (decision 035).
 */
export function deriveMqttId(name: string, suffix: string): string {
  return `${deriveNameMqttId(name).slice(0, 64 - suffix.length - 1)}_${suffix}`;
}

export interface MqttTopics {
  base: string;
  flag: string;
  state: string;
  availability: string;
  flagConfig: string;
  sessionConfig: string;
}

export function mqttTopics(companionId: string): MqttTopics {
  const id = mqttSafeId(companionId);
  const base = `flaglight/${id}`;
  return {
    base,
    flag: `${base}/flag`,
    state: `${base}/state`,
    availability: `${base}/availability`,
    flagConfig: `${DISCOVERY_PREFIX}/sensor/flaglight_${id}/flag/config`,
    sessionConfig: `${DISCOVERY_PREFIX}/sensor/flaglight_${id}/session/config`,
  };
}

/** The played flag as one word: a safety car and a double yellow are told apart from a yellow. */
export function flagWord(data: Pick<FlagEventData, 'state' | 'safetyCar' | 'cause'> | null): MqttFlagWord {
  if (data === null) return 'none';
  switch (data.state) {
    case 'checkered':
      return 'chequered';
    case 'yellow':
      if (data.safetyCar === true) return 'safety_car';
      return /DOUBLE YELLOW/i.test(data.cause.message) ? 'double_yellow' : 'yellow';
    default:
      return data.state;
  }
}

/** Where the flag came from, as the state document says it. */
export interface PlayedFlag {
  data: FlagEventData;
  /** The source the companion follows ("Flaglight server" or F1 live timing). */
  source: string;
  /** The delay the lights waited, ms. */
  delayMs: number;
  /** When the lights played it. */
  playedAt: Date;
}

/** The JSON state document (`flaglight/<id>/state`). */
export function statePayload(
  played: PlayedFlag | null,
  session: { key: number | null; name: string | null },
) {
  const data = played?.data ?? null;
  return {
    flag: flagWord(data),
    sectors: data && data.activeSectors.length > 0 ? data.activeSectors : [],
    session: { key: data?.sessionKey ?? session.key, name: session.name },
    source: played?.source ?? null,
    cause: data?.cause.message ?? null,
    delaySeconds: played ? Math.round(played.delayMs / 100) / 10 : null,
    updatedAt: (played?.playedAt ?? new Date()).toISOString(),
  };
}

export interface DiscoveryDevice {
  /** Topics, unique ids and the Home Assistant device (`deriveMqttId`). */
  companionId: string;
  /** Home Assistant's entity ids, readable (`sensor.flaglight_<name>_flag`; HA adds `_2` on a clash). */
  entityId?: string | undefined;
  name: string;
  version: string;
}

/** Home Assistant discovery: a flag sensor (enum) with the state as attributes, and a session sensor. */
export function discoveryConfigs(device: DiscoveryDevice): { topic: string; payload: unknown }[] {
  const id = mqttSafeId(device.companionId);
  const entityId = mqttSafeId(device.entityId ?? device.companionId);
  const topics = mqttTopics(device.companionId);
  const common = {
    availability_topic: topics.availability,
    payload_available: 'online',
    payload_not_available: 'offline',
    origin: { name: 'Flaglight' },
    device: {
      identifiers: [`flaglight_${id}`],
      name: device.name,
      manufacturer: 'Flaglight',
      model: 'Flaglight Companion',
      sw_version: device.version,
    },
  };
  return [
    {
      topic: topics.flagConfig,
      payload: {
        ...common,
        name: 'Track flag',
        unique_id: `flaglight_${id}_flag`,
        default_entity_id: `sensor.flaglight_${entityId}_flag`,
        state_topic: topics.flag,
        json_attributes_topic: topics.state,
        device_class: 'enum',
        options: [...MQTT_FLAG_WORDS],
        icon: 'mdi:flag-checkered',
      },
    },
    {
      topic: topics.sessionConfig,
      payload: {
        ...common,
        name: 'Session',
        unique_id: `flaglight_${id}_session`,
        default_entity_id: `sensor.flaglight_${entityId}_session`,
        state_topic: topics.state,
        value_template: "{{ value_json.session.name or value_json.session.key or 'none' }}",
        icon: 'mdi:racing-helmet',
      },
    },
  ];
}
