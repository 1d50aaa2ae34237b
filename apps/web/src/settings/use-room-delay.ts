import type { LinkedDevice, PreferencesDocument } from '@flaglight/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import {
  accountDelayMs,
  clampRoomOffset,
  formatOffset,
  formatSeconds,
  isInRoomRange,
  offsetFromMeasurement,
  parseOffsetInput,
  ROOM_DELAY_TEXTS as T,
  ROOM_OFFSET_MAX_MS,
  ROOM_OFFSET_MIN_MS,
  ROOM_OFFSET_STEP_MS,
} from './room-delay';
import { PREFERENCES_QUERY_KEY, RoomOffsetOutOfRange, saveRoomOffset } from './room-delay-api';

export interface RoomDelayControlProps {
  device: LinkedDevice;
  /** The account's preferences as last read or saved. */
  document: PreferencesDocument;
  /** Every companion linked now (an offset of one no longer linked may be dropped to make room). */
  linkedDeviceIds: readonly string[];
}

interface SaveRequest {
  /** The offset, or for a calibration the offset worked out on the document it is written on. */
  offsetMs: number | ((preferences: PreferencesDocument['preferences']) => number);
  /** The success text for the offset saved, when it should say more than "Saved" (a calibration). */
  announce?: (offsetMs: number) => string;
}

function saveErrorText(error: unknown): string {
  if (error instanceof RoomOffsetOutOfRange)
    return `Measured ${formatSeconds(error.measuredMs)} on this room's TV: ${outOfRangeNotice(error.offsetMs, error.baseMs)}`;

  // A refusal the user can act on (400 bounds, 429 too many writes) says why in the server's words.
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.code !== 'conflict')
    return `${T.saveFailed} (${error.message})`;
  return T.saveFailed;
}

/** Why a measurement cannot be a room's extra delay on top of the account's broadcast delay. */
function outOfRangeNotice(offsetMs: number, baseMs: number): string {
  return `that needs ${formatOffset(offsetMs)} on top of the ${formatSeconds(baseMs)} broadcast delay, outside ${formatOffset(ROOM_OFFSET_MIN_MS)} to ${formatOffset(ROOM_OFFSET_MAX_MS)}. Change the broadcast delay on the Dashboard first, then calibrate this room again.`;
}

/**
 * One companion's extra delay as set and as saved: the draft from slider, steppers or typed text,
 * its save (a calibration's offset worked out on the document it is written on) and what the save
 * said.
 */
export function useRoomDelay({ device, document, linkedDeviceIds }: RoomDelayControlProps) {
  const queryClient = useQueryClient();
  const savedMs = document.preferences.delayOffsetsMs[device.id] ?? 0;
  const baseMs = accountDelayMs(document.preferences);
  // Held until saved, so an answer from the server (or a failed save) never replaces what was set.
  const [draftMs, setDraftMs] = useState<number | null>(null);
  const [inputText, setInputText] = useState<string | null>(null);
  const [inputError, setInputError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [calibrating, setCalibrating] = useState(false);

  const save = useMutation({
    mutationFn: ({ offsetMs }: SaveRequest) =>
      saveRoomOffset({
        // The newest document this page has, so a write from another row is not undone.
        base: queryClient.getQueryData<PreferencesDocument>(PREFERENCES_QUERY_KEY) ?? document,
        deviceId: device.id,
        offsetMs,
        linkedDeviceIds,
      }),
    onMutate: () => setNotice(null),
    onSuccess: (saved, { announce }) => {
      queryClient.setQueryData(PREFERENCES_QUERY_KEY, saved);
      const offsetMs = saved.preferences.delayOffsetsMs[device.id] ?? 0;
      setDraftMs(null);
      setNotice({
        kind: 'success',
        text: announce?.(offsetMs) ?? `Saved: ${formatOffset(offsetMs)} for ${device.name}.`,
      });
    },
    onError: (error) => setNotice({ kind: 'error', text: saveErrorText(error) }),
  });

  const valueMs = draftMs ?? savedMs;
  const changed = (draftMs !== null && draftMs !== savedMs) || inputText !== null;

  const change = (ms: number) => {
    setDraftMs(ms);
    setInputText(null);
    setInputError(null);
    setNotice(null);
  };

  /** The typed value, if one waits: applied, or refused with the reason. */
  const commitInput = (): number | null => {
    if (inputText === null) return valueMs;
    const parsed = parseOffsetInput(inputText);
    if (!parsed.ok) {
      setInputError(parsed.error);
      return null;
    }
    change(parsed.ms);
    return parsed.ms;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const ms = commitInput();
    if (ms !== null) save.mutate({ offsetMs: ms });
  };

  const step = (direction: 1 | -1) =>
    change(clampRoomOffset(clampRoomOffset(valueMs) + direction * ROOM_OFFSET_STEP_MS));

  const calibrated = (seconds: number) => {
    const measuredMs = seconds * 1000;
    const measured = `Measured ${formatSeconds(measuredMs)} on this room's TV`;
    // Worked out on the account's delay as the server has it when it saves, never a stale copy.
    const offsetOn = (preferences: PreferencesDocument['preferences']) => {
      const base = accountDelayMs(preferences);
      const offset = offsetFromMeasurement(measuredMs, base);
      if (!isInRoomRange(offset)) throw new RoomOffsetOutOfRange(offset, base, measuredMs);
      return offset;
    };
    setInputText(null);
    setInputError(null);
    save.mutate({
      offsetMs: offsetOn,
      announce: (offset) => `${measured}: its extra delay is now ${formatOffset(offset)}.`,
    });
  };

  const editInput = (text: string) => {
    setInputText(text);
    setInputError(null);
    setNotice(null);
  };

  const reset = () => {
    setDraftMs(null);
    setInputText(null);
    setInputError(null);
    setNotice(null);
  };

  const toggleCalibrating = () => setCalibrating((open) => !open);

  return {
    savedMs,
    baseMs,
    draftMs,
    valueMs,
    changed,
    inputText,
    inputError,
    notice,
    calibrating,
    saving: save.isPending,
    change,
    commitInput,
    submit,
    step,
    calibrated,
    editInput,
    reset,
    toggleCalibrating,
  };
}

export type RoomDelay = ReturnType<typeof useRoomDelay>;
