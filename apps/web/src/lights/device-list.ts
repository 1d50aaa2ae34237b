import { DEVICE_MAX_PAGE_BUTTONS, DEVICE_PAGE_SIZE, DEVICE_SEARCH_THRESHOLD } from '@flaglight/core';
import type { LightDeviceInfo } from '@flaglight/lights';

/** SPEC §2: the search box shows only above 5 devices. */
export function showsSearch(count: number): boolean {
  return count > DEVICE_SEARCH_THRESHOLD;
}

/** Devices whose label, name, group or location contains the query (case-insensitive). */
export function filterDevices(devices: readonly LightDeviceInfo[], query: string): LightDeviceInfo[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [...devices];
  return devices.filter((device) =>
    [device.label, device.name, device.group?.name, device.location?.name, device.id].some((text) =>
      text?.toLowerCase().includes(needle),
    ),
  );
}

export function pageCount(count: number, pageSize = DEVICE_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/** The items of a 1-based page. */
export function pageOf<T>(items: readonly T[], page: number, pageSize = DEVICE_PAGE_SIZE): T[] {
  return items.slice((page - 1) * pageSize, page * pageSize);
}

/** At most 5 page numbers (SPEC §9), centred on the current page where possible. */
export function pageButtons(current: number, total: number, max = DEVICE_MAX_PAGE_BUTTONS): number[] {
  const count = Math.min(max, total);
  let first = Math.max(1, current - Math.floor(count / 2));
  first = Math.min(first, total - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}
