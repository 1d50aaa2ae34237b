// The companion's home-automation outputs: what the lights play is told to an MQTT broker (with
// Home Assistant discovery) when one is configured. Nothing here when none is.
import type { FlagEventData } from '@flaglight/core';
import type { Logger } from '../system/log.js';
import { APP_VERSION } from '../version.js';
import { createMqttPublisher, type MqttSettings, type MqttStatus } from './mqtt-publisher.js';

export interface HomeSupport {
  /** The lights played this flag now. */
  played(data: FlagEventData, source: string, delayMs: number): void;
  /** The follower's state: outside a live session the flag is `none`. */
  following(sessionKey: number | null, live: boolean): void;
  status(): { mqtt: MqttStatus | null };
  close(): Promise<void>;
}

export function createHomeSupport(options: {
  mqtt: MqttSettings | null;
  companionId: string;
  log: Logger;
}): HomeSupport {
  const mqtt =
    options.mqtt === null
      ? null
      : createMqttPublisher(
          options.mqtt,
          {
            companionId: options.companionId.toLowerCase(),
            name: `Flaglight Companion (${options.companionId})`,
            version: APP_VERSION,
          },
          options.log,
        );
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
