// "As it was": one device's own state read before a session, sent in its turn like a control call.
import type { GoveeReadState } from './budget.js';
import type { GoveeCloudClient, GoveeDeviceState, GoveeResult } from './client.js';
import type { DayBudget } from './day-budget.js';
import { MINUTE_MS, type Slot } from './device-slot.js';

export const GOVEE_READ_MESSAGES = {
  notListed: 'Govee does not list this light',
  offline: 'Govee says this light is offline: it could not be read',
  unreadable: (detail: string) => `Govee could not read this light: ${detail}`,
  closed: 'The Govee connection was closed before this light could be read',
} as const;

type Reader = Slot['readers'][number];

/** Gives every read waiting on the slot this answer. */
export function answerReads(slot: Slot, state: GoveeReadState): void {
  for (const answer of slot.readers.splice(0)) answer(state);
}

/** What a state answer means: what the device shows (from now on what it is known to show), or why not. */
function readOutcome(slot: Slot, result: GoveeResult<GoveeDeviceState>, at: number): GoveeReadState {
  if (!result.ok) {
    // Over the device's minute (another app used it): its next call waits as a control's would.
    if (result.kind === 'rate-limit')
      slot.pausedUntil = Math.max(slot.pausedUntil, at + (result.retryAfterMs ?? MINUTE_MS));
    return { readable: false, reason: GOVEE_READ_MESSAGES.unreadable(result.detail) };
  }
  const { online, on, brightness, rgb, kelvin } = result.value;
  if (!online || on === undefined) return { readable: false, reason: GOVEE_READ_MESSAGES.offline };
  // A device in white shows its kelvin, not the colour it also reports: the white is kept.
  const colour = kelvin !== undefined ? { kelvin } : rgb !== undefined ? { rgb } : {};
  slot.known = { on, ...colour, ...(brightness === undefined ? {} : { brightness }) };
  return { readable: true, on, state: { ...slot.known, on } };
}

/**
 * One state call for the reads waiting on a device (they share it): in flight like a control call,
 * counted in the device's minute (Govee's minute per device may hold both; the simulator's does)
 * and the day's budget. `done` runs once it has answered.
 */
export function sendRead(
  deps: { client: GoveeCloudClient; now: () => number; apiKey: string },
  slot: Slot,
  day: DayBudget,
  done: () => void,
): void {
  const at = deps.now();
  // The reads waiting now; one asked while this call is out gets a call of its own.
  const readers: Reader[] = slot.readers.splice(0);
  const answer = (state: GoveeReadState) => {
    for (const reader of readers) reader(state);
  };
  slot.inFlight = true;
  slot.sentAt.push(at);
  day.countSend(at);
  void deps.client
    .state(deps.apiKey, { sku: slot.sku, device: slot.device })
    .then((result) => {
      day.learn(result.rate);
      answer(readOutcome(slot, result, deps.now()));
    })
    .catch(() => answer({ readable: false, reason: GOVEE_READ_MESSAGES.unreadable('no answer') }))
    .finally(() => {
      slot.inFlight = false;
      done();
    });
}
