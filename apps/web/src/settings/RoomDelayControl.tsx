import type { LinkedDevice, PreferencesDocument } from '@flaglight/contract';
import * as Slider from '@radix-ui/react-slider';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Minus, Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { CalibrationTool } from '../delay/CalibrationTool';
import { FormMessage } from '../login/FormField';
import { buttonClass } from '../ui/button-styles';
import {
  accountDelayMs,
  clampRoomOffset,
  describeRoomDelay,
  formatOffset,
  formatSeconds,
  isInRoomRange,
  measureTenths,
  offsetFromMeasurement,
  offsetInputText,
  parseOffsetInput,
  ROOM_DELAY_TEXTS as T,
  ROOM_OFFSET_MAX_MS,
  ROOM_OFFSET_MIN_MS,
  ROOM_OFFSET_STEP_MS,
} from './room-delay';
import { PREFERENCES_QUERY_KEY, RoomOffsetOutOfRange, saveRoomOffset } from './room-delay-api';

interface RoomDelayControlProps {
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
 * Settings → Devices, per companion: its own delay on top of the broadcast delay (the companion
 * adds `delayOffsetsMs[device id]`), for a room whose TV runs on another feed than the others.
 */
export function RoomDelayControl({ device, document, linkedDeviceIds }: RoomDelayControlProps) {
  const queryClient = useQueryClient();
  const savedMs = document.preferences.delayOffsetsMs[device.id] ?? 0;
  const baseMs = accountDelayMs(document.preferences);
  // Held until saved, so an answer from the server (or a failed save) never replaces what was set.
  const [draftMs, setDraftMs] = useState<number | null>(null);
  const [inputText, setInputText] = useState<string | null>(null);
  const [inputError, setInputError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [calibrating, setCalibrating] = useState(false);
  const ids = { label: useId(), input: useId(), error: useId(), total: useId() };

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

  const sliderSeconds = clampRoomOffset(valueMs) / 1000;

  return (
    <form
      onSubmit={submit}
      aria-labelledby={ids.label}
      className="flex flex-col gap-3 border-t border-ink-600 pt-3"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p id={ids.label} className="font-semibold text-ink-100">
          {T.label}
        </p>
        <span className="font-mono text-lg text-ink-100 tabular-nums" data-testid="room-offset-value">
          {formatOffset(valueMs)}
        </span>
      </div>

      <div className="flex items-center gap-2">
        <button
          type="button"
          aria-label={T.decrease}
          disabled={clampRoomOffset(valueMs) <= ROOM_OFFSET_MIN_MS}
          onClick={() => step(-1)}
          className={buttonClass('secondary', 'sm', 'min-w-11 shrink-0')}
        >
          <Minus aria-hidden="true" className="size-4" />
        </button>
        <Slider.Root
          min={ROOM_OFFSET_MIN_MS / 1000}
          max={ROOM_OFFSET_MAX_MS / 1000}
          step={ROOM_OFFSET_STEP_MS / 1000}
          value={[sliderSeconds]}
          onValueChange={([seconds]) => {
            if (seconds !== undefined) change(clampRoomOffset(seconds * 1000));
          }}
          className="relative flex h-11 w-full touch-none items-center select-none"
        >
          <Slider.Track className="relative h-2 grow overflow-hidden rounded-full bg-ink-600">
            <Slider.Range className="absolute h-full bg-accent" />
          </Slider.Track>
          <Slider.Thumb
            aria-label={T.label}
            aria-valuetext={formatOffset(clampRoomOffset(valueMs))}
            aria-describedby={ids.total}
            className="flex size-11 items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-accent"
          >
            {/* The 28 px knob inside a 44 px tap target. */}
            <span className="block size-7 rounded-full border-4 border-accent bg-ink-100 shadow-card" />
          </Slider.Thumb>
        </Slider.Root>
        <button
          type="button"
          aria-label={T.increase}
          disabled={clampRoomOffset(valueMs) >= ROOM_OFFSET_MAX_MS}
          onClick={() => step(1)}
          className={buttonClass('secondary', 'sm', 'min-w-11 shrink-0')}
        >
          <Plus aria-hidden="true" className="size-4" />
        </button>
      </div>
      {/* Inset by a stepper's width and the gap, so the ends sit under the track's. */}
      <div aria-hidden="true" className="flex justify-between px-13 font-mono text-caption text-ink-300">
        <span>{formatOffset(ROOM_OFFSET_MIN_MS)}</span>
        <span>{formatOffset(ROOM_OFFSET_MAX_MS)}</span>
      </div>

      <p id={ids.total} className="text-ink-100">
        {describeRoomDelay(baseMs, valueMs, document.preferences.delay.enabled)}
        {changed && <span className="ml-2 text-caption text-ink-300">(not saved yet)</span>}
      </p>
      {draftMs === null && !isInRoomRange(savedMs) && (
        <p className="text-caption text-ink-300">
          Set elsewhere to {formatOffset(savedMs)}, outside this control&apos;s{' '}
          {formatOffset(ROOM_OFFSET_MIN_MS)} to {formatOffset(ROOM_OFFSET_MAX_MS)}; it stays until you save a
          new value.
        </p>
      )}

      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.input} className="text-caption text-ink-300">
            {T.inputLabel}
          </label>
          <input
            id={ids.input}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={inputText ?? offsetInputText(valueMs)}
            onChange={(event) => {
              setInputText(event.target.value);
              setInputError(null);
              setNotice(null);
            }}
            onBlur={() => commitInput()}
            aria-invalid={inputError !== null}
            aria-describedby={inputError ? ids.error : undefined}
            className="min-h-11 w-28 rounded-control border border-ink-600 bg-ink-900 px-3 font-mono text-lg text-ink-100 aria-invalid:border-danger"
          />
        </div>
        <button type="submit" disabled={!changed || save.isPending} className={buttonClass('primary', 'sm')}>
          {save.isPending ? T.saving : T.save}
        </button>
        {changed && !save.isPending && (
          <button
            type="button"
            onClick={() => {
              setDraftMs(null);
              setInputText(null);
              setInputError(null);
              setNotice(null);
            }}
            className={buttonClass('ghost', 'sm')}
          >
            {T.reset}
          </button>
        )}
        <button
          type="button"
          aria-expanded={calibrating}
          onClick={() => setCalibrating((open) => !open)}
          className={buttonClass('secondary', 'sm')}
        >
          {T.calibrate}
        </button>
      </div>
      {inputError && (
        <p id={ids.error} role="alert" className="text-caption text-danger">
          {inputError}
        </p>
      )}
      {notice && <FormMessage kind={notice.kind}>{notice.text}</FormMessage>}

      {calibrating && (
        <>
          <p className="text-caption text-ink-300">
            The broadcast delay ({formatSeconds(baseMs)}) is taken off what you measure; the rest becomes this
            room&apos;s extra delay, saved at once.
          </p>
          <CalibrationTool
            title={T.calibrateTitle}
            screen={T.calibrateScreen}
            measure={measureTenths}
            onMeasured={calibrated}
          />
        </>
      )}
    </form>
  );
}
