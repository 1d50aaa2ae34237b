// The companion's home-automation outputs: what the lights play is told to an MQTT broker (with
// Home Assistant discovery) when one is configured. Nothing here when none is.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { FlagEventData } from '@flaglight/core';
import type { Logger } from '../system/log.js';
import type { StateFile } from '../system/state-file.js';
import { APP_VERSION } from '../version.js';
import {
  createMqttPublisher,
  type MqttPublisherOptions,
  type MqttSettings,
  type MqttStatus,
} from './mqtt-publisher.js';
import { deriveMqttId, deriveNameMqttId } from './mqtt-topics.js';

export interface HomeSupport {
  /** The lights played this flag now. */
  played(data: FlagEventData, source: string, delayMs: number): void;
  /** The follower's state: outside a live session the flag is `none`. */
  following(sessionKey: number | null, live: boolean): void;
  status(): { mqtt: MqttStatus | null };
  close(): Promise<void>;
}

const SUFFIX = /^[0-9a-f]{4}$/;

/**
 * This companion's MQTT id: its name and a random suffix made once and kept in its state file, so
 * it stays the same across restarts, links and unlinks (decision 035). A data folder that was in use
 * before the suffix existed has its old name-only topics cleared once.
 */
export function requireMqttIdentity(
  store: StateFile,
  name: string,
): { id: string; legacy: MqttPublisherOptions['legacy'] } {
  let kept = store.get().mqtt;
  if (kept === undefined || !SUFFIX.test(kept.suffix)) {
    const upgrading = kept === undefined && fs.existsSync(store.file);
    kept = { suffix: randomBytes(2).toString('hex'), legacyCleared: !upgrading };
    const made = kept;
    store.update((s) => ({ ...s, mqtt: made }));
  }
  const legacy = kept.legacyCleared
    ? null
    : {
        id: deriveNameMqttId(name),
        cleared: () =>
          store.update((s) => ({ ...s, mqtt: s.mqtt ? { ...s.mqtt, legacyCleared: true } : s.mqtt })),
      };
  return { id: deriveMqttId(name, kept.suffix), legacy };
}

export function createHomeSupport(options: {
  mqtt: MqttSettings | null;
  /** The companion's name (`--name` or the computer's). */
  companionName: string;
  store: StateFile;
  log: Logger;
  publisher?: Omit<MqttPublisherOptions, 'legacy'>;
}): HomeSupport {
  let mqtt = null;
  if (options.mqtt !== null) {
    const identity = requireMqttIdentity(options.store, options.companionName);
    mqtt = createMqttPublisher(
      options.mqtt,
      {
        companionId: identity.id,
        entityId: deriveNameMqttId(options.companionName),
        name: `Flaglight Companion (${options.companionName})`,
        version: APP_VERSION,
      },
      options.log,
      { ...options.publisher, legacy: identity.legacy },
    );
  }
  let live = false;
  return {
    played(data, source, delayMs) {
      live = true;
      mqtt?.played({ data, source, delayMs, playedAt: new Date() });
    },
    following(sessionKey, isLive) {
      mqtt?.session({ key: sessionKey, name: null });
      if (live && !isLive) mqtt?.played(null);
      live = isLive;
    },
    status: () => ({ mqtt: mqtt?.status() ?? null }),
    close: async () => {
      await mqtt?.close();
    },
  };
}
