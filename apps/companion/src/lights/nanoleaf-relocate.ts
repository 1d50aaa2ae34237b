// A controller address offered (typed by the user, or answered by mDNS): kept for pairing, and
// tried for a paired controller that stopped answering, only where its token may go.
import { fetchNanoleafInfo, NANOLEAF_MDNS_MAX_FOUND, type NanoleafAddress } from '@flaglight/lights/lan';
import type { StoredNanoleaf } from '../system/state-file.js';
import { nanoleafPairAgain } from './nanoleaf-messages.js';
import { addressText, storedNanoleaf, type Found, type NanoleafContext } from './nanoleaf-state.js';

/** Starts driving a paired controller. */
export type DriveNanoleaf = (device: StoredNanoleaf) => Promise<void>;

export async function addCandidate(
  ctx: NanoleafContext,
  drive: DriveNanoleaf,
  offered: { address: NanoleafAddress; name: string | null; found: Found },
): Promise<void> {
  const { address, found } = offered;
  const { candidates } = ctx;
  if (storedNanoleaf(ctx).some((d) => d.host === address.host && d.port === address.port)) return;
  candidates.set(addressText(address), offered);
  // Records anyone can announce must not pile up from search to search: the oldest go first.
  for (const text of candidates.keys()) {
    if (candidates.size <= NANOLEAF_MDNS_MAX_FOUND) break;
    candidates.delete(text);
  }
  await relocate(ctx, drive, address, found);
}

/**
 * An unreachable paired controller may have moved. Its token is tried at the new address only
 * when the user gave that address, or when the address's mDNS record shows the TXT `id` stored
 * at pairing; the serial number it then answers must be the stored one too.
 */
async function relocate(ctx: NanoleafContext, drive: DriveNanoleaf, address: NanoleafAddress, found: Found) {
  const { store, drivers, replaced } = ctx;
  const lost = storedNanoleaf(ctx).filter((d) => drivers.get(d.id)?.connected === false);
  const confirmed = lost.filter(
    (d) =>
      found.from === 'user' ||
      (d.mdnsId !== undefined && found.deviceId !== null && d.mdnsId === found.deviceId),
  );
  for (const device of confirmed) {
    try {
      const info = await fetchNanoleafInfo(address, device.token, 2_000);
      if (info.id !== device.id) continue;
      store.update((s) => ({
        ...s,
        nanoleafDevices: s.nanoleafDevices.map((d) => (d.id === device.id ? { ...d, ...address } : d)),
      }));
      ctx.candidates.delete(addressText(address));
      ctx.pairAgain.delete(device.id);
      // A stopped driver (another controller took its address) starts anew at the new one.
      if (replaced.delete(device.id)) await drive({ ...device, ...address });
      else drivers.get(device.id)?.moveTo(address);
      return;
    } catch {
      // Not this one.
    }
  }
  if (found.from === 'user') return;
  for (const device of lost.filter((d) => !replaced.has(d.id))) {
    ctx.pairAgain.add(device.id);
    ctx.pairing = nanoleafPairAgain(device.name ?? 'Nanoleaf', addressText(address));
    ctx.log.warn(`Nanoleaf: ${ctx.pairing}`);
  }
}
