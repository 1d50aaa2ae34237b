import {
  DEFAULT_DELAY_SECONDS,
  DELAY_MAX_SECONDS,
  DELAY_RANGE_CABLE_SECONDS,
  DELAY_RANGE_LOW_SECONDS,
  DELAY_RANGE_OFFICIAL_STREAMING_SECONDS,
  DELAY_RANGE_STREAMING_SECONDS,
  LIFETIME_PRICE_AUD,
  REFUND_WINDOW_DAYS,
} from '@flaglight/core';

export { DESKTOP_DOWNLOAD_URL, FALLBACK_SUPPORT_EMAIL } from './support';

export type HelpLink =
  | { kind: 'route'; label: string; to: '/settings' | '/dashboard' }
  | { kind: 'support'; label: string }
  | { kind: 'download'; label: string };

export interface HelpArticle {
  id: string;
  question: string;
  answer: string;
  links?: readonly HelpLink[];
}

export interface HelpCategory {
  id: string;
  title: string;
  articles: readonly HelpArticle[];
}

const SETTINGS: HelpLink = { kind: 'route', label: 'Open Settings', to: '/settings' };
const DASHBOARD: HelpLink = { kind: 'route', label: 'Open the dashboard', to: '/dashboard' };
const SUPPORT: HelpLink = { kind: 'support', label: 'E-mail support' };
const DOWNLOAD: HelpLink = { kind: 'download', label: 'Download for Windows' };

const seconds = ([low, high]: readonly [number, number]) => `${low}–${high} s`;

/** SPEC §2 Help version B: the searchable help centre, six categories. */
export const HELP_CATEGORIES: readonly HelpCategory[] = [
  {
    id: 'getting-started',
    title: 'Getting Started',
    articles: [
      {
        id: 'first-steps',
        question: 'How do I set Flaglight up?',
        answer:
          'Three steps: connect your lights in Settings (LIFX with an API token, Philips Hue through your Hue account, Govee with an API key) or through the Flaglight Companion desktop app on your network (Nanoleaf, Govee, LIFX and Hue), or use the on-screen light on the dashboard; choose which lights follow the flags in Light Control on the dashboard, then connect to the live session in Race Control when it starts.',
        links: [SETTINGS, DASHBOARD],
      },
      {
        id: 'test-lights',
        question: 'How can I test my lights before a session?',
        answer:
          'Race Control on the dashboard has a test button for every flag: green, red, yellow, chequered, safety car, VSC, VSC ending and fastest lap. Each plays the same effect your lights will show in a race.',
        links: [DASHBOARD],
      },
      {
        id: 'keep-open',
        question: 'Do I need to keep the browser open?',
        answer:
          'Yes. In the browser, your lights are driven from the open tab, so keep it open for the whole session; while connected the dashboard keeps the screen awake. The Windows desktop app runs in the background instead.',
        links: [DOWNLOAD],
      },
    ],
  },
  {
    id: 'smart-light-setup',
    title: 'Smart Light Setup',
    articles: [
      {
        id: 'lifx-token',
        question: 'How do I connect LIFX lights?',
        answer:
          'Sign in at cloud.lifx.com, open Settings and generate a personal access token, then paste it into the LIFX section of Flaglight’s Settings and press Connect. The token stays in your browser.',
        links: [SETTINGS],
      },
      {
        id: 'hue-connect',
        question: 'How do I connect Philips Hue lights?',
        answer:
          'In Settings, connect your Hue account: a Hue window opens where you allow Flaglight, then Flaglight creates an application key for your bridge. Allow pop-ups for this site if nothing opens.',
        links: [SETTINGS],
      },
      {
        id: 'govee-cloud',
        question: 'How do I connect Govee lights through Govee’s cloud?',
        answer:
          'In the Govee Home app open Profile → Settings → Apply for API Key; Govee e-mails you a key (applying again replaces the old one). Paste it into Settings → Govee Cloud and press Connect Govee. Flaglight’s server keeps the key encrypted and calls Govee for you. Govee’s cloud shows solid colours only: a flashing flag shows its colour and the chequered flag shows white, a few seconds after the flag, and Govee allows a limited number of requests a day. On your network, through the desktop app, flags flash and there is no such limit.',
        links: [SETTINGS],
      },
      {
        id: 'choose-lights',
        question: 'How do I choose which lights follow the flags?',
        answer:
          'In Light Control on the dashboard, tick the lights you want, or use Select All. Lights you never want to see can be hidden from the list.',
        links: [DASHBOARD],
      },
      {
        id: 'nanoleaf-setup',
        question: 'How do I connect Nanoleaf lights?',
        answer:
          'Nanoleaf Light Panels, Canvas, Shapes, Elements, Lines and 4D work through the Flaglight Companion desktop app, on a computer on the same network as the controller. Link the companion, open the Companion tab in Light Control (or Settings → Nanoleaf) and press Pair a Nanoleaf. Then hold the power button on your Nanoleaf controller for 5–7 seconds until the lights flash: the companion waits up to 60 seconds. If it finds no controller, type its address (Nanoleaf app: the device → Settings → IP address). Nanoleaf Essentials bulbs and strips that only work through Matter or Thread are not supported.',
        links: [DASHBOARD, DOWNLOAD],
      },
      {
        id: 'home-assistant-setup',
        question: 'How do I connect lights through Home Assistant?',
        answer:
          'The Flaglight Companion drives every light Home Assistant knows. In Home Assistant open your profile → Security → Long-lived access tokens → Create token, and copy it (it is shown once). Start the companion with --home-assistant http://homeassistant.local:8123 (or set FLAGLIGHT_HA_URL), open its status page at http://127.0.0.1:47920/ (another port if it was started with --port) and paste the token there (or set FLAGLIGHT_HA_TOKEN). The token stays on that computer. Then pick the lights in the Companion tab of Light Control. White-only lights show flags as warm or cool white, and dimmers only dim.',
        links: [DASHBOARD, DOWNLOAD],
      },
      {
        id: 'wled-setup',
        question: 'How do I connect a WLED strip?',
        answer:
          'The Flaglight Companion finds WLED controllers on your network by itself. If it does not, give the controller a fixed address in your router and start the companion with --wled 192.168.1.50 (several: separated by commas; or set FLAGLIGHT_WLED). Red and chequered flags use WLED’s Blink effect.',
        links: [DASHBOARD, DOWNLOAD],
      },
      {
        id: 'mqtt-setup',
        question: 'Can my automations follow the flag (MQTT)?',
        answer:
          'Yes. Start the Flaglight Companion with --mqtt mqtt://your-broker:1883 (or set FLAGLIGHT_MQTT_URL, with FLAGLIGHT_MQTT_USERNAME and FLAGLIGHT_MQTT_PASSWORD). It publishes the flag the room shows, after your delay, to flaglight/<computer>_<code>/flag (<code>: four characters the companion draws once, shown on its status page; green, yellow, double_yellow, red, safety_car, vsc, vsc_ending, chequered, fastest_lap or none), with a JSON state and availability beside it, all retained. Home Assistant shows a "Track flag" sensor by itself through MQTT discovery; Node-RED, Homey and openHAB can subscribe too.',
        links: [SETTINGS, DOWNLOAD],
      },
      {
        id: 'raspberry-pi',
        question: 'Can the companion run on a Raspberry Pi?',
        answer:
          'Yes, on a Raspberry Pi 3, 4 or 5 with a 64-bit OS, so the room follows the race with no computer switched on. Download the Raspberry Pi build below, run chmod +x on it, run it with link --no-browser and open the link it prints on your phone. Then autostart on starts it at boot (with sudo loginctl enable-linger $USER so it runs without anyone logged in). Settings such as --mqtt go in its environment, e.g. FLAGLIGHT_MQTT_URL.',
        links: [DOWNLOAD],
      },
      {
        id: 'govee-lan',
        question: 'How do I connect Govee lights on my network?',
        answer:
          'Govee Wi-Fi lights work through the Flaglight Companion desktop app, on a computer on the same network. In the Govee Home app, open each light’s device settings and switch on LAN Control. The companion then finds them by itself, and they appear in the Companion tab of Light Control. Models without the LAN Control switch, and Bluetooth-only models, cannot be reached this way.',
        links: [DASHBOARD, DOWNLOAD],
      },
    ],
  },
  {
    id: 'broadcast-delay',
    title: 'Broadcast Delay',
    articles: [
      {
        id: 'what-delay',
        question: 'What is the broadcast delay?',
        answer: `TV and streams show the race a little after it happens. The broadcast delay holds each light change back so your room matches your screen. It is on by default at ${DEFAULT_DELAY_SECONDS} seconds and goes up to ${DELAY_MAX_SECONDS} seconds on the slider.`,
        links: [DASHBOARD],
      },
      {
        id: 'which-delay',
        question: 'Which delay should I pick?',
        answer: `Typical delays: cable or satellite ${seconds(DELAY_RANGE_CABLE_SECONDS)}, streaming services ${seconds(DELAY_RANGE_STREAMING_SECONDS)}, the official streaming service ${seconds(DELAY_RANGE_OFFICIAL_STREAMING_SECONDS)}. Some broadcasts run only ${seconds(DELAY_RANGE_LOW_SECONDS)} behind. Start with a preset, then calibrate.`,
      },
      {
        id: 'calibrate',
        question: 'How does calibration work?',
        answer:
          'Press Start the moment something happens live (your lights with the delay off, or the live timing), then Mark when your TV shows the same moment. The seconds between them, rounded, become your delay.',
        links: [DASHBOARD],
      },
      {
        id: 'reduce',
        question: 'Why am I asked before lowering the delay?',
        answer:
          'A delay that is too short lets the lights give away a crash or a safety car before you see it, so Flaglight asks “Reduce Broadcast Delay?” first. Raising it never asks.',
      },
    ],
  },
  {
    id: 'live-sessions',
    title: 'Live Sessions',
    articles: [
      {
        id: 'when-connect',
        question: 'When can I connect to a session?',
        answer:
          'From 5 minutes before a session starts until 4 hours after. The dashboard counts down to the next session and shows the calendar in your time zone.',
        links: [DASHBOARD],
      },
      {
        id: 'flags',
        question: 'Which flags change my lights?',
        answer:
          'Green, yellow (including sector yellows and the safety car), red, the chequered flag, the virtual safety car and its ending, and a purple flash for a fastest lap.',
      },
      {
        id: 'after-session',
        question: 'What happens at the chequered flag?',
        answer:
          'Your lights play the chequered effect and settle on white. Flaglight ends the session for you and sends a short summary e-mail.',
      },
    ],
  },
  {
    id: 'troubleshooting',
    title: 'Troubleshooting',
    articles: [
      {
        id: 'setup-required',
        question: 'Race Control says “Setup Required”',
        answer:
          'Connecting needs somewhere to show the flags. The on-screen light counts: tick "Use this screen as a light" under Light Control → On-screen light (it is ticked unless you unticked it) and keep the tab open near the TV. Or connect LIFX, Philips Hue or Govee in Settings and tick a light in Light Control, or run the Flaglight Companion for your LAN lights.',
        links: [SETTINGS, DASHBOARD],
      },
      {
        id: 'connection-error',
        question: 'I see “Connection Error” or “Invalid LIFX API token”',
        answer:
          'Your light provider refused the connection. Generate a new LIFX token or reconnect Hue in Settings. If it keeps happening, e-mail support with the time and the message you saw.',
        links: [SETTINGS, SUPPORT],
      },
      {
        id: 'rate-limited',
        question: 'The lights lag or skip a change',
        answer:
          'Light providers limit how many commands they accept per second, and Flaglight slows down when asked to. Selecting fewer lights helps. Check that your delay matches your broadcast.',
      },
      {
        id: 'govee-budget',
        question: 'My Govee lights skip some flags',
        answer:
          'Govee allows 10 commands per light per minute and 10,000 a day per account. Flaglight sends each light only the latest colour and, when the day’s budget runs low, shows only the track-wide flags (red, green, chequered, safety car, VSC) so the lights keep working until the end of the race. Settings → Govee Cloud → Govee diagnostics shows the budget left today; it resets at midnight UTC. If Govee refuses your key, apply for a new one and connect again.',
        links: [SETTINGS],
      },
      {
        id: 'nanoleaf-trouble',
        question: 'My Nanoleaf does not pair or has dropped off',
        answer:
          'Pairing needs the Flaglight Companion running on a computer on the same network as the controller. Press Pair a Nanoleaf in the Companion tab or in Settings → Nanoleaf, then hold the controller’s power button for 5–7 seconds until the lights flash; if the 60 seconds run out, hold it again and press Try again. If the controller is not found, enter its address. Settings → Nanoleaf → Nanoleaf diagnostics shows whether the companion on this computer reaches each controller, and Forget unpairs one. A controller that drops off the network shows as unreachable and is found again when it is back, with no new pairing; pair again only after a factory reset.',
        links: [DASHBOARD],
      },
      {
        id: 'govee-trouble',
        question: 'The companion finds no Govee lights',
        answer:
          'Switch on LAN Control for each light in the Govee Home app (device settings); if the switch is missing, turn the light off and on and wait about 30 minutes. The computer and the lights must be on the same network, not a guest network. A firewall must let the companion use UDP (Govee lights answer on port 4002), and another Govee app running on the same computer can hold port 4002: close it, then search again from the companion.',
        links: [DASHBOARD, SUPPORT],
      },
      {
        id: 'tab-asleep',
        question: 'The lights stopped when my computer slept',
        answer:
          'A sleeping computer or a closed tab stops the browser from driving your lights. Keep the dashboard open and the device awake, or use the Windows desktop app.',
        links: [DOWNLOAD],
      },
    ],
  },
  {
    id: 'account-pricing',
    title: 'Account & Pricing',
    articles: [
      {
        id: 'trial',
        question: 'How long is the free trial?',
        answer:
          'The trial covers one race weekend from sign-up, so you can follow real sessions before paying. The Terms of Service describe it as a 7-day trial.',
      },
      {
        id: 'price',
        question: 'How much is lifetime access?',
        answer: `A$${LIFETIME_PRICE_AUD}, once, with no subscription. Pay by card, PayPal or Apple Pay from Settings, or activate a licence key there.`,
        links: [SETTINGS],
      },
      {
        id: 'refund',
        question: 'Can I get my money back?',
        answer: `Yes: there is a ${REFUND_WINDOW_DAYS}-day money-back guarantee. E-mail support within ${REFUND_WINDOW_DAYS} days of paying.`,
        links: [SUPPORT],
      },
      {
        id: 'systems',
        question: 'Which systems can I use?',
        answer:
          'Windows 10/11, macOS 10.15+, iOS 14+ and Android 8+ in a current browser; the desktop companion on Windows, Linux (x64) and a Raspberry Pi or other 64-bit ARM Linux.',
        links: [DOWNLOAD],
      },
    ],
  },
];

function normalise(text: string): string {
  return text
    .toLocaleLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
}

/**
 * The categories with only the articles whose question or answer holds every word of the
 * query (SPEC §2 Help version B); categories left empty are dropped. A blank query keeps all.
 */
export function searchHelp(
  query: string,
  categories: readonly HelpCategory[] = HELP_CATEGORIES,
): HelpCategory[] {
  const words = normalise(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...categories];
  return categories
    .map((category) => ({
      ...category,
      articles: category.articles.filter((article) => {
        const text = normalise(`${article.question} ${article.answer}`);
        return words.every((word) => text.includes(word));
      }),
    }))
    .filter((category) => category.articles.length > 0);
}
