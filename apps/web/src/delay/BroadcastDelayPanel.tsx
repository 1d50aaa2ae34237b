import {
  clampDelayForSlider,
  DELAY_MAX_SECONDS,
  DELAY_MIN_SECONDS,
  DELAY_PRESETS,
  DELAY_RANGE_CABLE_SECONDS,
  DELAY_RANGE_OFFICIAL_STREAMING_SECONDS,
  DELAY_RANGE_STREAMING_SECONDS,
  validateDelayInput,
} from '@flaglight/core';
import * as Slider from '@radix-ui/react-slider';
import * as Switch from '@radix-ui/react-switch';
import { Timer } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { UnsavedChangeNotice } from '../settings/UnsavedChangeNotice';
import { Panel } from '../ui/Panel';
import { Tooltip } from '../ui/Tooltip';
import { CalibrationTool } from './CalibrationTool';
import { ReduceDelayDialog } from './ReduceDelayDialog';
import { useBroadcastDelay } from './use-broadcast-delay';

const PRESET_HINTS: Record<(typeof DELAY_PRESETS)[number]['id'], string> = {
  cable: `Cable and satellite TV usually run ${DELAY_RANGE_CABLE_SECONDS[0]}–${DELAY_RANGE_CABLE_SECONDS[1]} s behind live.`,
  streaming: `Streaming services usually run ${DELAY_RANGE_STREAMING_SECONDS[0]}–${DELAY_RANGE_STREAMING_SECONDS[1]} s behind live.`,
  f1tv: `The official streaming service usually runs ${DELAY_RANGE_OFFICIAL_STREAMING_SECONDS[0]}–${DELAY_RANGE_OFFICIAL_STREAMING_SECONDS[1]} s behind live.`,
};

/**
 * SPEC §2 Broadcast Delay: presets, slider 0–60, number input, enable toggle and calibration,
 * stored per user (SPEC §3). Lowering the delay asks first (SPEC §4).
 */
export function BroadcastDelayPanel() {
  const delay = useBroadcastDelay();
  const { delaySeconds, delayEnabled, shown, request } = delay;
  // The value under the finger while dragging; keys and clicks commit at once instead.
  const [sliderDraft, setSliderDraft] = useState<number | null>(null);

  return (
    <Panel
      title="Broadcast Delay"
      icon={Timer}
      className="flex-1"
      description="Holds each light change back so your room matches your TV or stream, not the live feed."
      actions={<DelaySwitch enabled={delayEnabled} onChange={delay.setDelayEnabled} />}
    >
      <UnsavedChangeNotice area="delay" />
      <div className="flex items-end gap-3">
        <p
          className="font-display text-6xl leading-none font-extrabold tabular-nums italic"
          aria-live="polite"
        >
          {sliderDraft ?? shown}
          <span className="ml-1 text-3xl text-ink-300">s</span>
          <span className="sr-only"> broadcast delay{delayEnabled ? '' : ', off'}</span>
        </p>
        <p className="pb-1 text-caption text-ink-300">
          {delayEnabled
            ? 'Lights change this long after race control calls it.'
            : 'Delay off: lights change the moment race control calls it.'}
        </p>
      </div>

      <DelayPresets delaySeconds={delaySeconds} onPick={request} />
      <DelaySlider
        value={sliderDraft ?? clampDelayForSlider(shown)}
        onDraft={setSliderDraft}
        onCommit={request}
      />
      <ExactDelayForm shown={shown} onSet={request} />

      <CalibrationTool
        onMeasured={(seconds) => request(seconds, `Broadcast delay calibrated to ${seconds} s`)}
      />

      <ReduceDelayDialog
        pending={delay.pendingSeconds}
        current={delaySeconds}
        onCancel={delay.cancelReduce}
        onConfirm={delay.confirmReduce}
      />
    </Panel>
  );
}

function DelaySwitch({ enabled, onChange }: { enabled: boolean; onChange: (checked: boolean) => void }) {
  const switchId = useId();
  return (
    <div className="flex items-center gap-3">
      <label htmlFor={switchId} className="font-semibold text-ink-100">
        Enable delay
      </label>
      <Switch.Root
        id={switchId}
        checked={enabled}
        onCheckedChange={onChange}
        className="relative inline-flex h-11 w-[4.5rem] shrink-0 items-center rounded-full border border-ink-600 bg-ink-700 transition-colors data-[state=checked]:border-accent data-[state=checked]:bg-accent"
      >
        <Switch.Thumb className="block size-9 translate-x-1 rounded-full bg-ink-100 shadow transition-transform data-[state=checked]:translate-x-[1.875rem] data-[state=checked]:bg-on-accent" />
      </Switch.Root>
    </div>
  );
}

/** The usual delays of cable, streaming and the official stream, each with its typical range. */
function DelayPresets({ delaySeconds, onPick }: { delaySeconds: number; onPick: (seconds: number) => void }) {
  return (
    <div role="group" aria-label="Presets" className="grid gap-2">
      {DELAY_PRESETS.map((preset) => {
        const selected = delaySeconds === preset.seconds;
        return (
          <Tooltip key={preset.id} content={PRESET_HINTS[preset.id]}>
            <button
              type="button"
              aria-pressed={selected}
              onClick={() => onPick(preset.seconds)}
              className={`flex min-h-12 items-center justify-between gap-3 rounded-control border px-4 py-2 text-left transition-colors ${
                selected
                  ? 'border-accent bg-accent/15 text-ink-100'
                  : 'border-ink-600 bg-ink-900 text-ink-100 hover:border-ink-400'
              }`}
            >
              <span className="font-semibold">{preset.label}</span>
              <span className="font-mono text-caption text-ink-300">{preset.seconds} s</span>
            </button>
          </Tooltip>
        );
      })}
    </div>
  );
}

/** The slider: dragging shows a draft, letting go (or a key) asks for the value. */
function DelaySlider({
  value: sliderValue,
  onDraft,
  onCommit,
}: {
  value: number;
  onDraft: (seconds: number | null) => void;
  onCommit: (seconds: number) => void;
}) {
  const [dragging, setDragging] = useState(false);
  const sliderId = useId();
  return (
    <div className="flex flex-col gap-2">
      <label id={sliderId} className="font-semibold text-ink-100">
        Delay in seconds
      </label>
      <Slider.Root
        min={DELAY_MIN_SECONDS}
        max={DELAY_MAX_SECONDS}
        step={1}
        value={[sliderValue]}
        onPointerDown={() => setDragging(true)}
        onValueChange={([value]) => {
          if (dragging && value !== undefined) onDraft(value);
        }}
        onValueCommit={([value]) => {
          setDragging(false);
          onDraft(null);
          if (value !== undefined) onCommit(value);
        }}
        className="relative flex h-11 w-full touch-none items-center select-none"
      >
        <Slider.Track className="relative h-2 grow overflow-hidden rounded-full bg-ink-600">
          <Slider.Range className="absolute h-full bg-accent" />
        </Slider.Track>
        <Slider.Thumb
          aria-labelledby={sliderId}
          aria-valuetext={`${sliderValue} seconds`}
          className="flex size-11 items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-accent"
        >
          {/* The 28 px knob inside a 44 px tap target. */}
          <span className="block size-7 rounded-full border-4 border-accent bg-ink-100 shadow-card" />
        </Slider.Thumb>
      </Slider.Root>
      <div aria-hidden="true" className="flex justify-between font-mono text-caption text-ink-300">
        <span>{DELAY_MIN_SECONDS} s</span>
        <span>{DELAY_MAX_SECONDS} s</span>
      </div>
    </div>
  );
}

/** A typed delay, checked when submitted or left; a bad one says why beneath. */
function ExactDelayForm({ shown, onSet }: { shown: number; onSet: (seconds: number) => void }) {
  const [inputDraft, setInputDraft] = useState<string | null>(null);
  const [inputError, setInputError] = useState<string | null>(null);
  const ids = { input: useId(), error: useId() };

  const commitInput = (event?: FormEvent) => {
    event?.preventDefault();
    if (inputDraft === null) return;
    const result = validateDelayInput(inputDraft);
    if (!result.ok) {
      setInputError(result.error);
      return;
    }
    setInputError(null);
    setInputDraft(null);
    onSet(Math.round(result.value));
  };

  return (
    <form onSubmit={commitInput} className="flex flex-col gap-1">
      <label htmlFor={ids.input} className="font-semibold text-ink-100">
        Exact delay (seconds)
      </label>
      <div className="flex gap-3">
        <input
          id={ids.input}
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          value={inputDraft ?? String(shown)}
          onChange={(event) => {
            setInputDraft(event.target.value);
            setInputError(null);
          }}
          onBlur={() => commitInput()}
          aria-invalid={inputError !== null}
          aria-describedby={inputError ? ids.error : undefined}
          className="min-h-11 w-28 rounded-control border border-ink-600 bg-ink-900 px-3 font-mono text-lg text-ink-100 aria-invalid:border-danger"
        />
        <button
          type="submit"
          className="min-h-11 rounded-control border border-ink-600 bg-ink-700 px-4 font-semibold text-ink-100 hover:border-ink-400"
        >
          Set delay
        </button>
      </div>
      {inputError && (
        <p id={ids.error} role="alert" className="text-caption text-danger">
          {inputError}
        </p>
      )}
    </form>
  );
}
