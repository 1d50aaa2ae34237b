import type { LinkedDevice } from '@flaglight/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DEVICES_QUERY_KEY, fetchDevices, unlinkDevice } from '../devices/device-api';
import { FormMessage } from '../login/FormField';
import { buttonClass } from '../ui/button-styles';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { ROOM_DELAY_TEXTS } from './room-delay';
import { fetchPreferencesDocument, PREFERENCES_QUERY_KEY } from './room-delay-api';
import { RoomDelayControl } from './RoomDelayControl';

/** The list is read again this often while Settings is open: "online now" changes on its own. */
const REFRESH_MS = 10_000;

export const DEVICES_TEXTS = {
  loading: 'Loading your companions…',
  loadFailed: 'Your companions could not be loaded. Please try again.',
  empty:
    'No companion is linked yet. Install Flaglight Companion on a computer: on its first start it prints a link (and opens it). Open that link here, signed in, and press Link.',
  unlinkFailed: 'The companion could not be unlinked. Please try again.',
  never: 'Never',
} as const;

export function unlinkConfirmation(name: string): string {
  return `Unlink ${name}? It stops following your account at once; to use it again, link it again.`;
}

function formatTime(value: string | null): string {
  if (!value) return DEVICES_TEXTS.never;
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? DEVICES_TEXTS.never
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Settings → Devices: the account's linked desktop companions, each with its room's delay and Unlink. */
export function DevicesSection() {
  const queryClient = useQueryClient();
  const devices = useQuery({
    queryKey: DEVICES_QUERY_KEY,
    queryFn: fetchDevices,
    refetchInterval: REFRESH_MS,
  });
  const hasDevices = (devices.data?.length ?? 0) > 0;
  // Read with the list, and again when the page regains focus: the broadcast delay may change elsewhere.
  const preferences = useQuery({
    queryKey: PREFERENCES_QUERY_KEY,
    queryFn: fetchPreferencesDocument,
    enabled: hasDevices,
  });
  const linkedIds = devices.data?.map((device) => device.id) ?? [];
  const [toUnlink, setToUnlink] = useState<LinkedDevice | null>(null);
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const unlink = useMutation({
    mutationFn: (device: LinkedDevice) => unlinkDevice(device.id),
    onMutate: () => setNotice(null),
    onSuccess: (_data, device) => setNotice({ kind: 'success', text: `${device.name} was unlinked.` }),
    onError: () => setNotice({ kind: 'error', text: DEVICES_TEXTS.unlinkFailed }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: DEVICES_QUERY_KEY }),
  });

  return (
    <div className="flex flex-col gap-4">
      {notice && <FormMessage kind={notice.kind}>{notice.text}</FormMessage>}
      {devices.isPending && <p role="status">{DEVICES_TEXTS.loading}</p>}
      {devices.isError && <FormMessage kind="error">{DEVICES_TEXTS.loadFailed}</FormMessage>}
      {devices.data?.length === 0 && <p className="text-ink-300">{DEVICES_TEXTS.empty}</p>}
      {hasDevices && preferences.isError && (
        <div className="flex flex-wrap items-center gap-3">
          <FormMessage kind="error">{ROOM_DELAY_TEXTS.loadFailed}</FormMessage>
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            onClick={() => void preferences.refetch()}
          >
            {ROOM_DELAY_TEXTS.retry}
          </button>
        </div>
      )}
      {devices.data && devices.data.length > 0 && (
        <ul aria-label="Linked companions" className="flex flex-col gap-3">
          {devices.data.map((device) => (
            <li
              key={device.id}
              aria-label={device.name}
              className="flex flex-col gap-3 rounded-control border border-ink-600 p-4"
            >
              <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
                <div className="flex min-w-0 flex-col gap-1">
                  <p className="flex flex-wrap items-center gap-2 font-semibold break-all text-ink-100">
                    {device.name}
                    <span
                      className={`rounded-full border px-2 py-0.5 text-xs ${device.online ? 'border-accent/60 text-accent' : 'border-ink-400/60 text-ink-300'}`}
                    >
                      {device.online ? 'Online now' : 'Offline'}
                    </span>
                  </p>
                  <dl className="grid grid-cols-[auto_1fr] gap-x-4 text-sm text-ink-300">
                    <dt>Platform</dt>
                    <dd>{device.platform}</dd>
                    <dt>Version</dt>
                    <dd>{device.version}</dd>
                    <dt>Linked</dt>
                    <dd>{formatTime(device.linkedAt)}</dd>
                    <dt>Last seen</dt>
                    <dd>{formatTime(device.lastSeenAt)}</dd>
                  </dl>
                </div>
                <button
                  type="button"
                  className={buttonClass('danger', 'sm', 'self-start')}
                  aria-label={`Unlink ${device.name}`}
                  disabled={unlink.isPending}
                  onClick={() => setToUnlink(device)}
                >
                  Unlink
                </button>
              </div>
              {preferences.data ? (
                <RoomDelayControl device={device} document={preferences.data} linkedDeviceIds={linkedIds} />
              ) : (
                preferences.isPending && (
                  <p className="text-caption text-ink-300">{ROOM_DELAY_TEXTS.loading}</p>
                )
              )}
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={toUnlink !== null}
        title="Unlink companion"
        description={toUnlink && unlinkConfirmation(toUnlink.name)}
        confirmLabel="Unlink"
        onConfirm={() => {
          if (toUnlink) unlink.mutate(toUnlink);
          setToUnlink(null);
        }}
        onCancel={() => setToUnlink(null)}
      />
    </div>
  );
}
