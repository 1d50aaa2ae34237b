import {
  DEFAULT_DELAY_SECONDS,
  DELAY_RANGE_CABLE_SECONDS,
  DELAY_RANGE_LOW_SECONDS,
  DELAY_RANGE_OFFICIAL_STREAMING_SECONDS,
  DELAY_RANGE_STREAMING_SECONDS,
  LIFETIME_PRICE_AUD,
  REFUND_WINDOW_DAYS,
  type FaqItem,
} from '@flaglight/core';

export type FaqCategory = 'general' | 'technical' | 'billing' | 'compatibility';

export interface FaqEntry extends FaqItem {
  category: FaqCategory;
}

/** SPEC §2 Help version A: the tabs, in order, with the label each shows. */
export const FAQ_TABS: readonly { value: 'all' | FaqCategory; label: string }[] = [
  { value: 'all', label: 'All Questions' },
  { value: 'general', label: 'General' },
  { value: 'technical', label: 'Technical' },
  { value: 'billing', label: 'Billing' },
  { value: 'compatibility', label: 'Compatibility' },
];

const range = ([low, high]: readonly [number, number]) => `${low}–${high} seconds`;

/**
 * The 18 questions of SPEC §2, and whether the flashing can be stopped (4 general, 7 technical,
 * 4 billing, 4 compatibility).
 */
export const FAQ_ITEMS: readonly FaqEntry[] = [
  {
    category: 'general',
    question: 'What is Flaglight?',
    answer:
      'Flaglight follows live Formula 1 sessions, reads the flag calls from race control and changes the colour of your smart lights to match: green, yellow, red, chequered, safety car, virtual safety car and fastest lap. Your room tells you what is happening on track.',
  },
  {
    category: 'general',
    question: 'Is Flaglight an official Formula 1 product?',
    answer:
      'No. Flaglight is an independent product and is not affiliated with Formula 1, the FIA or Formula One Management. It uses openly available race-control data.',
  },
  {
    category: 'general',
    question: 'Which sessions does Flaglight follow?',
    answer:
      'Every session of a race weekend: Practice 1, 2 and 3, Sprint Qualifying, the Sprint, Qualifying and the Race. The dashboard shows the calendar in your own time zone and counts down to the next session.',
  },
  {
    category: 'general',
    question: 'Can I try it before I pay?',
    answer:
      'Yes. Every new account starts with a free trial that covers one race weekend, so you can see your lights follow real sessions before deciding.',
  },
  {
    category: 'technical',
    question: 'Why do my lights change before my TV shows the incident?',
    answer: `TV and streams run behind the live feed. Set the broadcast delay on the dashboard to match: cable and satellite are usually ${range(DELAY_RANGE_CABLE_SECONDS)} behind, streaming services ${range(DELAY_RANGE_STREAMING_SECONDS)}, and the official streaming service ${range(DELAY_RANGE_OFFICIAL_STREAMING_SECONDS)}. The calibration tool measures yours.`,
  },
  {
    category: 'technical',
    question: 'What is the default broadcast delay?',
    answer: `${DEFAULT_DELAY_SECONDS} seconds, switched on. Some fast broadcasts are only ${range(DELAY_RANGE_LOW_SECONDS)} behind live; you can set anything from 0 to 60 seconds with the slider, type an exact value, or switch the delay off.`,
  },
  {
    category: 'technical',
    question: 'Does the browser tab need to stay open?',
    answer:
      'Yes. On the web, Flaglight drives your lights from the open tab, so keep it open during a session; the dashboard keeps the screen awake while you are connected. The Windows desktop app runs in the background instead, so you can close the browser.',
  },
  {
    category: 'technical',
    question: 'How quickly do the lights react to a flag?',
    answer:
      'Flaglight checks race control every few seconds and sends the light change the moment it sees a new flag, plus your broadcast delay. Light effects take about a second to play.',
  },
  {
    category: 'technical',
    question: 'What does each colour mean?',
    answer:
      'Green: racing. Yellow (with a short strobe): a yellow flag or the safety car. Red: the session is stopped. Orange: virtual safety car, a deeper orange as it ends. Purple: a fastest lap. Black and white strobe, then white: the chequered flag. These are the Trackside looks, the default; Settings → Flags & effects changes the colour, brightness and effect of each flag.',
  },
  {
    category: 'technical',
    question: 'Can I stop the flashing?',
    answer:
      'Yes. Turn on "No flashing" in Settings → Flags & effects, beside your lights when you connect them, or in the on-screen light\'s panel on the dashboard. Then no light and no screen changes more than 3 times a second: strobes play as a steady colour and pulses slow to one a second. The Calm preset also flashes nothing and keeps the light soft. On a computer set to reduce motion, the on-screen light does not flash unless you let it.',
  },
  {
    category: 'technical',
    question: 'My lights did not change. What should I check?',
    answer:
      'Make sure the dashboard says you are connected to the live session, that your light provider is connected in Settings, and that at least one light is selected in Light Control. Use the test flag buttons to check the lights respond.',
  },
  {
    category: 'billing',
    question: 'How much does Flaglight cost?',
    answer: `Lifetime access costs A$${LIFETIME_PRICE_AUD}, paid once. There is no subscription and nothing renews.`,
  },
  {
    category: 'billing',
    question: 'How can I pay?',
    answer:
      'By card, PayPal or Apple Pay through our secure checkout provider. Flaglight never sees or stores your card details. You can also activate a licence key in Settings.',
  },
  {
    category: 'billing',
    question: 'Is there a money-back guarantee?',
    answer: `Yes, a ${REFUND_WINDOW_DAYS}-day money-back guarantee. Write to support within ${REFUND_WINDOW_DAYS} days of paying. Billing errors are always investigated; see the Terms of Service for the full wording.`,
  },
  {
    category: 'billing',
    question: 'What happens when my trial ends?',
    answer:
      'The dashboard asks you to upgrade. Your settings are kept, and once you buy lifetime access everything works again straight away.',
  },
  {
    category: 'compatibility',
    question: 'Which smart lights work with Flaglight?',
    answer:
      'LIFX (a personal API token), Philips Hue (your Hue account or a bridge on your network), Nanoleaf Panels, Canvas, Shapes, Elements and Lines (through the desktop app on your network), and Govee Wi-Fi lights (through the desktop app with LAN Control on, or Govee’s cloud with an API key). Nanoleaf Essentials that only work through Matter or Thread are not supported.',
  },
  {
    category: 'compatibility',
    question: 'Which devices and systems are supported?',
    answer:
      'Windows 10 and 11, macOS 10.15 or later, iOS 14 or later and Android 8 or later, in a current browser. The desktop app is for Windows.',
  },
  {
    category: 'compatibility',
    question: 'Do I need a Hue Bridge?',
    answer:
      'Yes, Philips Hue lights are controlled through a Hue Bridge. Connect it once in Settings through your Hue account; the Windows desktop app can also reach a bridge on your home network.',
  },
  {
    category: 'compatibility',
    question: 'Can I use lights of different brands together?',
    answer:
      'Yes. Choose which lights follow the flags: Govee lights, the lights the desktop companion drives on your network (LIFX, Philips Hue, Nanoleaf, Govee) and the on-screen light all follow together. Of the two cloud connections in the browser, LIFX and Philips Hue, one drives the lights during a session: Hue when both are ready.',
  },
];

/** How many questions each tab holds. */
export function countFaqItems(items: readonly FaqEntry[] = FAQ_ITEMS): Record<'all' | FaqCategory, number> {
  const counts = { all: items.length, general: 0, technical: 0, billing: 0, compatibility: 0 };
  for (const item of items) counts[item.category] += 1;
  return counts;
}
