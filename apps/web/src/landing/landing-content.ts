import {
  Bell,
  Clock3,
  Lightbulb,
  MonitorSmartphone,
  Plug,
  Radio,
  Timer,
  Trophy,
  type LucideIcon,
} from 'lucide-react';
import govee from './logos/govee.svg';
import homeAssistant from './logos/home-assistant.svg';
import hue from './logos/hue.svg';
import lifx from './logos/lifx.svg';
import mqtt from './logos/mqtt.svg';
import nanoleaf from './logos/nanoleaf.svg';
import wled from './logos/wled.svg';

export interface Step {
  title: string;
  text: string;
  icon: LucideIcon;
}

export const HOW_IT_WORKS: readonly Step[] = [
  {
    title: 'Connect your lights',
    text: 'Paste a LIFX token, sign in to Philips Hue or add a Govee key, or let the Flaglight Companion desktop app drive LIFX, Hue, Nanoleaf, Govee, WLED and everything in Home Assistant on your network, and tell your MQTT broker the flag. No smart lights? The on-screen light shows every flag.',
    icon: Plug,
  },
  {
    title: 'Match your broadcast',
    text: 'Choose cable, streaming or the official streaming service, or calibrate in ten seconds, so the room never beats the TV.',
    icon: Timer,
  },
  {
    title: 'Go live',
    text: 'Connect when the session starts. Every flag from race control lights up your room, then back to green.',
    icon: Radio,
  },
];

export interface Feature {
  title: string;
  text: string;
  icon: LucideIcon;
}

export const FEATURES: readonly Feature[] = [
  {
    title: 'Every flag, live',
    text: 'Green, yellow, red, chequered, safety car, VSC and fastest lap, each with its own light effect.',
    icon: Bell,
  },
  {
    title: 'Sector-aware yellows',
    text: 'Lights stay yellow while any sector is under caution and go green only when the last one clears.',
    icon: Lightbulb,
  },
  {
    title: 'Broadcast delay',
    text: 'Presets, a 0–60 s slider and a calibration tool keep the room in step with your screen.',
    icon: Timer,
  },
  {
    title: 'Full calendar',
    text: 'Every practice, qualifying, sprint and race in your own time zone, with a countdown to the next.',
    icon: Clock3,
  },
  {
    title: 'Browser or desktop',
    text: 'Runs in any current browser on Windows, macOS, iOS and Android, or in the background with the Windows app.',
    icon: MonitorSmartphone,
  },
  {
    title: 'Pay once',
    text: 'Try a race weekend free, then lifetime access for A$20. No subscription, 30-day money-back guarantee.',
    icon: Trophy,
  },
];

export interface Integration {
  name: string;
  logo: string;
  text: string;
}

export const INTEGRATIONS: readonly Integration[] = [
  { name: 'LIFX', logo: lifx, text: 'Cloud API with a personal token.' },
  { name: 'Philips Hue', logo: hue, text: 'Hue account or a bridge on your network.' },
  { name: 'Nanoleaf', logo: nanoleaf, text: 'Panels, Shapes and Lines, through the desktop app.' },
  { name: 'Govee', logo: govee, text: "Wi-Fi lights and strips, on your network or through Govee's cloud." },
  {
    name: 'Home Assistant',
    logo: homeAssistant,
    text: 'Every light Home Assistant knows (IKEA, Zigbee, Z-Wave, WiZ…), through the desktop app.',
  },
  { name: 'WLED', logo: wled, text: 'LED strips behind the TV, through the desktop app.' },
  {
    name: 'MQTT',
    logo: mqtt,
    text: 'The flag for any automation: Home Assistant, Node-RED, Homey, openHAB.',
  },
];
