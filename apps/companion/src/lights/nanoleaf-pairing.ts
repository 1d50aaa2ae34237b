// Pairing a Nanoleaf controller: one at a time, waiting for its power button, then kept in the state
// file (replacing a controller another one answered for at that address) and driven.
import {
  fetchNanoleafInfo,
  NANOLEAF_PAIRING_TIMEOUT_MS,
  pairNanoleaf,
  parseNanoleafAddress,
  type NanoleafAddress,
} from '@flaglight/lights/lan';
import type { StoredNanoleaf } from '../system/state-file.js';
import { NANOLEAF_NONE_FOUND } from './nanoleaf-messages.js';
import type { DriveNanoleaf } from './nanoleaf-relocate.js';
import { addressText, storedNanoleaf, type NanoleafContext } from './nanoleaf-state.js';

export interface PairingTuning {
  pairingTimeoutMs?: number;
  pollMs?: number;
}

type PairResult = { ok: true; name: string } | { ok: false; error: string };

/** Pairs the controller at `text` (or the first unpaired one found). */
export async function pairController(
  ctx: NanoleafContext,
  drive: DriveNanoleaf,
  text: string | undefined,
  tuning: PairingTuning,
): Promise<PairResult> {
  if (ctx.busy) return { ok: false, error: 'A Nanoleaf pairing is already waiting for the power button.' };
  let address: NanoleafAddress | undefined;
  try {
    address = text === undefined ? [...ctx.candidates.values()][0]?.address : parseNanoleafAddress(text);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (!address) return { ok: false, error: NANOLEAF_NONE_FOUND };
  // The one slot: taken here and freed in `finally`, whatever the controller answered.
  ctx.busy = true;
  try {
    const device = await waitForButton(ctx, address, tuning);
    keepPaired(ctx, device, address);
    await drive(device);
    ctx.pairing = `Paired with ${device.name}.`;
    ctx.log.info(`Nanoleaf: paired with ${device.name} (${device.model})`);
    return { ok: true, name: device.name };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.pairing = message;
    ctx.log.warn(`Nanoleaf: ${message}`);
    return { ok: false, error: message };
  } finally {
    ctx.busy = false;
  }
}

/** The token the controller gives while its power button is held, and what it then says it is. */
async function waitForButton(
  ctx: NanoleafContext,
  address: NanoleafAddress,
  tuning: PairingTuning,
): Promise<StoredNanoleaf & { name: string; model: string }> {
  ctx.pairing = `Waiting for ${addressText(address)}: hold the power button for 5–7 seconds until the lights flash…`;
  ctx.log.info(`Nanoleaf: pairing with ${addressText(address)}: hold its power button 5–7 s`);
  await pressDemoButton(ctx.demoServer);
  const token = await pairNanoleaf(address, {
    timeoutMs: tuning.pairingTimeoutMs ?? NANOLEAF_PAIRING_TIMEOUT_MS,
    ...(tuning.pollMs === undefined ? {} : { pollMs: tuning.pollMs }),
    onWaiting: ({ remainingMs }) => {
      ctx.pairing = `${addressText(address)} is not in pairing mode yet: hold its power button for 5–7 seconds until the lights flash… (${Math.ceil(remainingMs / 1000)} s left)`;
    },
  });
  const info = await fetchNanoleafInfo(address, token);
  // The mDNS record this address was found by, if any: what a later move must show.
  const found = ctx.candidates.get(addressText(address))?.found;
  return {
    ...address,
    token,
    id: info.id,
    name: info.name,
    model: info.model,
    ...(found?.from === 'mdns' && found.deviceId !== null ? { mdnsId: found.deviceId } : {}),
  };
}

/** Kept in the state file; a controller paired at the address of one that another answered for replaces it. */
function keepPaired(ctx: NanoleafContext, device: StoredNanoleaf, address: NanoleafAddress): void {
  const gone = storedNanoleaf(ctx).filter(
    (d) => d.id !== device.id && ctx.replaced.has(d.id) && addressText(d) === addressText(address),
  );
  for (const old of gone) {
    ctx.replaced.delete(old.id);
    ctx.drivers.delete(old.id);
  }
  ctx.store.update((s) => ({
    ...s,
    nanoleafDevices: [
      ...s.nanoleafDevices.filter((d) => d.id !== device.id && !gone.some((g) => g.id === d.id)),
      device,
    ],
  }));
  ctx.candidates.delete(addressText(address));
  ctx.pairAgain.delete(device.id);
}

/** In the demo, the simulated controller's button is pressed for the user. */
async function pressDemoButton(demoServer: string | null): Promise<void> {
  if (!demoServer) return;
  await fetch(`${demoServer}/sims/lan/_control/nanoleaf/button`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(5_000),
  }).catch(() => undefined);
}
