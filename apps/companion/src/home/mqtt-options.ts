// `--mqtt URL` (env FLAGLIGHT_MQTT_URL), with the user name and password in the URL or in
// FLAGLIGHT_MQTT_USERNAME / FLAGLIGHT_MQTT_PASSWORD (kept out of the process list that way).
import { OptionError } from '../options.js';
import type { MqttSettings } from './mqtt-publisher.js';

export function parseMqttSettings(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): MqttSettings | null {
  const text = (flag ?? env.FLAGLIGHT_MQTT_URL ?? '').trim();
  if (text === '') return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OptionError(`--mqtt: "${text}" is not a URL (example: mqtt://homeassistant.local:1883)`);
  }
  if (url.protocol !== 'mqtt:' && url.protocol !== 'mqtts:')
    throw new OptionError('--mqtt: use an mqtt:// or mqtts:// address');
  if (url.hostname === '') throw new OptionError('--mqtt: the address names no broker');
  const username =
    env.FLAGLIGHT_MQTT_USERNAME ?? (url.username ? decodeURIComponent(url.username) : undefined);
  const password =
    env.FLAGLIGHT_MQTT_PASSWORD ?? (url.password ? decodeURIComponent(url.password) : undefined);
  // The credentials travel in the options, never in the URL MQTT.js logs or the status page shows.
  url.username = '';
  url.password = '';
  return {
    url: url.toString().replace(/\/$/, ''),
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
  };
}
