import * as Slider from '@radix-ui/react-slider';
import { Minus, Plus } from 'lucide-react';
import { useId } from 'react';
import { CalibrationTool } from '../delay/CalibrationTool';
import { FormMessage } from '../login/FormField';
import { buttonClass } from '../ui/button-styles';
import {
  clampRoomOffset,
  describeRoomDelay,
  formatOffset,
  formatSeconds,
  isInRoomRange,
  measureTenths,
  offsetInputText,
  ROOM_DELAY_TEXTS as T,
  ROOM_OFFSET_MAX_MS,
  ROOM_OFFSET_MIN_MS,
  ROOM_OFFSET_STEP_MS,
} from './room-delay';
import { useRoomDelay, type RoomDelay, type RoomDelayControlProps } from './use-room-delay';

/**
 * Settings → Devices, per companion: its own delay on top of the broadcast delay (the companion
 * adds `delayOffsetsMs[device id]`), for a room whose TV runs on another feed than the others.
 */
export function RoomDelayControl(props: RoomDelayControlProps) {
  const room = useRoomDelay(props);
  const { valueMs, savedMs, baseMs, notice } = room;
  const ids = { label: useId(), total: useId() };

  return (
    <form
      onSubmit={room.submit}
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

      <RoomOffsetSlider room={room} describedBy={ids.total} />

      <p id={ids.total} className="text-ink-100">
        {describeRoomDelay(baseMs, valueMs, props.document.preferences.delay.enabled)}
        {room.changed && <span className="ml-2 text-caption text-ink-300">(not saved yet)</span>}
      </p>
      {room.draftMs === null && !isInRoomRange(savedMs) && (
        <p className="text-caption text-ink-300">
          Set elsewhere to {formatOffset(savedMs)}, outside this control&apos;s{' '}
          {formatOffset(ROOM_OFFSET_MIN_MS)} to {formatOffset(ROOM_OFFSET_MAX_MS)}; it stays until you save a
          new value.
        </p>
      )}

      <RoomOffsetEntry room={room} />
      {notice && <FormMessage kind={notice.kind}>{notice.text}</FormMessage>}

      {room.calibrating && <RoomCalibration baseMs={baseMs} onMeasured={room.calibrated} />}
    </form>
  );
}

/** The offset on a slider between two steppers, with the range's ends beneath. */
function RoomOffsetSlider({ room, describedBy }: { room: RoomDelay; describedBy: string }) {
  const { valueMs, change, step } = room;
  const sliderSeconds = clampRoomOffset(valueMs) / 1000;
  return (
    <>
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
            aria-describedby={describedBy}
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
    </>
  );
}

/** The offset typed in seconds, with Save, Reset and the button that opens the calibration. */
function RoomOffsetEntry({ room }: { room: RoomDelay }) {
  const { valueMs, inputText, inputError, changed, saving } = room;
  const ids = { input: useId(), error: useId() };
  return (
    <>
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
            onChange={(event) => room.editInput(event.target.value)}
            onBlur={() => room.commitInput()}
            aria-invalid={inputError !== null}
            aria-describedby={inputError ? ids.error : undefined}
            className="min-h-11 w-28 rounded-control border border-ink-600 bg-ink-900 px-3 font-mono text-lg text-ink-100 aria-invalid:border-danger"
          />
        </div>
        <button type="submit" disabled={!changed || saving} className={buttonClass('primary', 'sm')}>
          {saving ? T.saving : T.save}
        </button>
        {changed && !saving && (
          <button type="button" onClick={room.reset} className={buttonClass('ghost', 'sm')}>
            {T.reset}
          </button>
        )}
        <button
          type="button"
          aria-expanded={room.calibrating}
          onClick={room.toggleCalibrating}
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
    </>
  );
}

/** The calibration tool, saying that the broadcast delay is taken off what it measures. */
function RoomCalibration({ baseMs, onMeasured }: { baseMs: number; onMeasured: (seconds: number) => void }) {
  return (
    <>
      <p className="text-caption text-ink-300">
        The broadcast delay ({formatSeconds(baseMs)}) is taken off what you measure; the rest becomes this
        room&apos;s extra delay, saved at once.
      </p>
      <CalibrationTool
        title={T.calibrateTitle}
        screen={T.calibrateScreen}
        measure={measureTenths}
        onMeasured={onMeasured}
      />
    </>
  );
}
