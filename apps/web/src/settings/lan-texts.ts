import type { LinkedDevice } from '@flaglight/contract';
import type { CompanionProvider } from '../companion/companion-lights';

/** Settings' texts for the brands the desktop companion drives on the LAN (Nanoleaf, Govee LAN), in one place. */
export const LAN_TEXTS = {
  loading: 'Loading your companions…',
  loadFailed: 'Your companions could not be loaded. Please try again.',
  noCompanion:
    'No Flaglight Companion is linked. Install it on a computer on the same network as your lights, start it and link it.',
  openDevices: 'Devices',
  connected: 'Connected',
  unreachable: 'Not reachable',
  via: (name: string, online: boolean) => `Via ${name}${online ? '' : ' (offline)'}`,
  checking: 'Asking the companion on this computer…',
  notRunning:
    'The Flaglight Companion is not running on this computer. Start it, or run this on the computer it runs on. If your browser asked about your local network, allow it and try again.',
  notLinked: 'The Flaglight Companion on this computer is not linked yet.',
  lightLine: (label: string, reachable: boolean, color: string | null) =>
    `${label}: ${reachable ? 'connected' : 'not reachable'}, ${color ? `last colour ${color}` : 'no colour sent yet'}`,
  nanoleaf: {
    intro:
      'Nanoleaf works through the Flaglight Companion: a computer on the same network as your controllers drives them.',
    list: 'Nanoleaf controllers',
    none: 'No Nanoleaf controller is paired yet.',
    forget: 'Forget',
    forgetTitle: 'Forget Nanoleaf controller',
    forgetConfirm: (name: string) =>
      `Forget ${name}? The companion on this computer stops driving it and drops its token; to use it again, pair it again.`,
    forgetting: (name: string) => `Asking the companion on this computer to forget ${name}…`,
    forgotten: (name: string) =>
      `${name} is forgotten. It leaves this list when the companion next reports its lights.`,
    notPairedHere: (name: string) =>
      `The companion on this computer has not paired ${name}. Forget it on the computer that paired it.`,
    forgetRefused: (message: string) => `The companion could not forget it: ${message}`,
    forgetUnsupported:
      'The companion on this computer cannot forget a Nanoleaf yet. Update the Flaglight Companion, then try again.',
    forgetNoAnswer:
      'No companion answered on this computer. Forget it from the computer the Flaglight Companion runs on, with it started. If your browser asked about your local network, allow it and try again.',
    diagnostics: 'Nanoleaf diagnostics',
    report: 'Nanoleaf diagnostics report',
    diagnosticsNone: 'The companion on this computer drives no Nanoleaf controller.',
  },
  goveeLan: {
    intro:
      'Govee lights on your home network work through the Flaglight Companion: a computer on the same network drives them.',
    list: 'Govee lights on the LAN',
    none: 'No Govee light found on the LAN yet.',
    lanControl:
      'Switch on LAN Control in the Govee Home app for each device (the device → Settings → LAN Control); the companion finds it within a minute.',
    cloudNote: 'Govee’s cloud, with an API key and no companion, is in the Govee Cloud section.',
    diagnostics: 'Govee LAN diagnostics',
    report: 'Govee LAN diagnostics report',
    diagnosticsNone: 'The companion on this computer found no Govee light on the LAN.',
  },
  homeAssistant: {
    intro:
      'Home Assistant works through the Flaglight Companion: it drives the lights Home Assistant knows (IKEA, Zigbee, Z-Wave, Yeelight, WiZ and hundreds more) with a long-lived access token, from a computer on the same network.',
    setup: [
      'In Home Assistant: your profile → Security → Long-lived access tokens → Create token, and copy it (it is shown once).',
      'Start the companion with --home-assistant http://homeassistant.local:8123 (or set FLAGLIGHT_HA_URL), then paste the token on its status page at http://127.0.0.1:47920/ (another port if it was started with --port), or set FLAGLIGHT_HA_TOKEN. The token stays on that computer: Flaglight never receives it.',
      'Pick the lights in Light Control → Companion. White-only lights show the flag as warm or cool white; dimmers only dim.',
    ],
    list: 'Home Assistant lights',
    none: 'No Home Assistant light reported yet.',
    diagnostics: 'Home Assistant diagnostics',
    report: 'Home Assistant diagnostics report',
    diagnosticsNone:
      'The companion on this computer drives no Home Assistant light: check its status page for "token refused" or an address it cannot reach.',
  },
  wled: {
    intro:
      'WLED strips work through the Flaglight Companion: it finds them on the network by itself, or you name them with --wled HOST (env FLAGLIGHT_WLED).',
    setup: [
      'Give each WLED controller a fixed address in your router (or use its name, e.g. wled-tv.local).',
      'Red and chequered flags use WLED’s Blink effect where the strip has it; solid colours otherwise.',
    ],
    list: 'WLED devices',
    none: 'No WLED device reported yet.',
    diagnostics: 'WLED diagnostics',
    report: 'WLED diagnostics report',
    diagnosticsNone: 'The companion on this computer found no WLED device.',
  },
  mqtt: {
    intro:
      'MQTT lets any automation follow the flag: the companion publishes it to your broker, and Home Assistant shows a "Track flag" sensor by itself (MQTT discovery). Node-RED, Homey and openHAB can subscribe too.',
    setup: [
      'Start the companion with --mqtt mqtt://homeassistant.local:1883 (or set FLAGLIGHT_MQTT_URL; the user name and password in FLAGLIGHT_MQTT_USERNAME and FLAGLIGHT_MQTT_PASSWORD).',
      'Topics, retained: flaglight/<computer>_<code>/flag (<code>: four characters drawn once, shown on the status page; green, yellow, double_yellow, red, safety_car, vsc, vsc_ending, chequered, fastest_lap or none), …/state (JSON) and …/availability (online or offline).',
      'The companion’s status page says whether it reached the broker; a wrong password or an unreachable broker is a line there, and it keeps trying.',
    ],
  },
} as const;

export interface CompanionLanLight {
  provider: CompanionProvider;
  id: string;
  label: string;
  reachable: boolean;
  companion: { id: string; name: string; online: boolean };
}

/** One brand's lights across the account's companions, as the server last heard them. */
export function lanLightsOf(
  devices: readonly LinkedDevice[],
  provider: CompanionProvider,
): CompanionLanLight[] {
  return devices.flatMap((device) =>
    device.lights
      .filter((light) => light.provider === provider)
      .map((light) => ({
        provider,
        id: light.id,
        label: light.label,
        reachable: device.online && light.reachable,
        companion: { id: device.id, name: device.name, online: device.online },
      })),
  );
}
