/**
 * The event streams linked companions hold open on this instance, by device: the Devices list
 * shows a companion online while it has one, and unlinking a companion closes them at once.
 */
export interface DeviceStreams {
  /** Registers an open stream of a device; the returned function forgets it (call it on close). */
  add(stream: { deviceId: string; userId: string }, close: () => void): () => void;
  isOnline(deviceId: string): boolean;
  /** Closes every open stream of the device (it was unlinked). */
  closeAll(deviceId: string): void;
  /**
   * Whether the device is still linked, as stored: each stream asks at its heartbeat, so a device
   * unlinked through another instance (REDIS_URL) loses its streams here too within a heartbeat.
   */
  stillLinked(deviceId: string): Promise<boolean>;
}

export interface DeviceStreamsOptions {
  isLinked?: (deviceId: string) => Promise<boolean>;
  /** A device came online (its first stream here) or went offline (its last one closed). */
  onPresence?: (change: { deviceId: string; userId: string; online: boolean }) => void;
}

export function createDeviceStreams(options: DeviceStreamsOptions = {}): DeviceStreams {
  const { isLinked = async () => true, onPresence } = options;
  const byDevice = new Map<string, Set<() => void>>();
  return {
    stillLinked: isLinked,
    add({ deviceId, userId }, close) {
      let set = byDevice.get(deviceId);
      if (!set) byDevice.set(deviceId, (set = new Set()));
      set.add(close);
      if (set.size === 1) onPresence?.({ deviceId, userId, online: true });
      let forgotten = false;
      return () => {
        if (forgotten) return;
        forgotten = true;
        set.delete(close);
        if (set.size === 0 && byDevice.get(deviceId) === set) {
          byDevice.delete(deviceId);
          onPresence?.({ deviceId, userId, online: false });
        }
      };
    },
    isOnline: (deviceId) => (byDevice.get(deviceId)?.size ?? 0) > 0,
    closeAll(deviceId) {
      for (const close of [...(byDevice.get(deviceId) ?? [])]) close();
    },
  };
}
