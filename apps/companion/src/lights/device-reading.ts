// Each LAN driver's device list as the hub keeps it: read by a scan (at start and on Rescan), and
// every few seconds and after the driver's events (a light found by the driver's own rescan, one
// that stopped answering).
import type { LightDeviceInfo } from '@flaglight/lights';
import type { Logger } from '../system/log.js';

/** One driver of the hub, as far as reading its device list needs it. */
export interface DeviceListEntry {
  key: string;
  driver: { discover(): Promise<LightDeviceInfo[]>; listDevices(): Promise<LightDeviceInfo[]> };
  devices: LightDeviceInfo[];
  /** The device list being read now, if it is: one read at a time (a silent address takes 10 s). */
  reading: Promise<void> | null;
}

/**
 * Reading each driver's device list; a driver that cannot read it cannot reach its lights either.
 * `found` takes each list read (it sets `entry.devices`, and sees which lights are new).
 */
export function createDeviceReading<E extends DeviceListEntry>(
  log: Logger,
  changed: () => void,
  found: (entry: E, devices: LightDeviceInfo[]) => void,
) {
  const markUnreachable = (entry: E) => {
    if (!entry.devices.some((d) => d.connected)) return;
    entry.devices = entry.devices.map((d) => ({ ...d, connected: false }));
    changed();
  };
  return {
    /** A scan (the driver's `discover`): at start and on Rescan. */
    refresh: async (entry: E) => {
      try {
        const before = JSON.stringify(entry.devices.map((d) => [d.id, d.label, d.connected]));
        found(entry, await entry.driver.discover());
        if (JSON.stringify(entry.devices.map((d) => [d.id, d.label, d.connected])) !== before) changed();
      } catch (error) {
        log.warn(`${entry.key}: ${error instanceof Error ? error.message : String(error)}`);
        markUnreachable(entry);
      }
    },
    /** The driver's list as it knows it, every few seconds and after its events; one read at a time. */
    refreshDevices: (entry: E): Promise<void> => {
      entry.reading ??= (async () => {
        try {
          const before = JSON.stringify(entry.devices.map((d) => [d.id, d.connected]));
          found(entry, await entry.driver.listDevices());
          if (JSON.stringify(entry.devices.map((d) => [d.id, d.connected])) !== before) changed();
        } catch {
          // The driver reported why already.
          markUnreachable(entry);
        } finally {
          entry.reading = null;
        }
      })();
      return entry.reading;
    },
  };
}
