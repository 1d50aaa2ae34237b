// What the status page and the log say of Nanoleaf pairing.
import { NANOLEAF_SERIAL_CHANGED } from '@flaglight/lights/lan';

/** What the status page says while it waits (DESIGN §5.9; reference nanoleaf-govee.md §1 "Pairing"). */
export const NANOLEAF_PAIR_STEPS =
  'Hold the power button on the Nanoleaf controller for 5–7 seconds until the lights flash, then click Pair. The companion waits up to 60 seconds; if the time runs out, hold the button again and click Pair to retry.';
export const NANOLEAF_NONE_FOUND =
  'No Nanoleaf controller found. Enter its address (Nanoleaf app: the device → Settings → IP address).';

/**
 * A paired controller stopped answering and a controller appeared elsewhere that could not be
 * confirmed as it without its token: the token stays here, and the user pairs it again.
 */
export function nanoleafPairAgain(name: string, found: string): string {
  return `${name} is not answering, and the Nanoleaf controller found at ${found} could not be confirmed as it, so its token was not sent there. If ${name} moved, pair it again: hold its power button for 5–7 seconds until the lights flash, then click Pair.`;
}

/**
 * A paired controller's address answered with another serial number (another controller there, or
 * this one replaced): the driver stopped, and the user pairs again if it was replaced.
 */
export function nanoleafReplaced(name: string, at: string): string {
  return `${name}: the controller at ${at} answers with another serial number, so Flaglight sends it nothing more. ${NANOLEAF_SERIAL_CHANGED} Hold its power button for 5–7 seconds until the lights flash, then click Pair.`;
}
