import type { EffectFlag } from '@flaglight/core';
import { useCallback, useEffect, useRef, useState } from 'react';

/** One flag of the sample and when it plays, from the start (ms). */
export interface SampleStep {
  flag: EffectFlag;
  atMs: number;
}

/**
 * A short race in about 30 s: green, a yellow, the safety car, green again, the chequered flag. Each
 * step has time for its effect to play and settle before the next.
 */
export const SAMPLE_STEPS: readonly SampleStep[] = [
  { flag: 'green', atMs: 0 },
  { flag: 'yellow', atMs: 6_000 },
  { flag: 'safety', atMs: 12_000 },
  { flag: 'green', atMs: 19_000 },
  { flag: 'checkered', atMs: 25_000 },
];
/** The sample ends this long after its start (the chequered flag's strobe has settled). */
export const SAMPLE_LENGTH_MS = 31_000;

export interface SampleState {
  /** Index of the step playing now, or null when no sample runs. */
  step: number | null;
  start: () => void;
  cancel: () => void;
}

/**
 * Plays the sample through `play` (the "Test your lights" path: now, never behind the broadcast
 * delay), one step at its time; cancelled by `cancel` or when the screen closes.
 */
export function useSample(play: (flag: EffectFlag) => void): SampleState {
  const [step, setStep] = useState<number | null>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const playRef = useRef(play);
  useEffect(() => {
    playRef.current = play;
  }, [play]);

  const cancel = useCallback(() => {
    timers.current.forEach(clearTimeout);
    timers.current = [];
    setStep(null);
  }, []);

  const start = useCallback(() => {
    cancel();
    timers.current = SAMPLE_STEPS.map(({ flag, atMs }, index) =>
      setTimeout(() => {
        setStep(index);
        playRef.current(flag);
      }, atMs),
    );
    timers.current.push(setTimeout(cancel, SAMPLE_LENGTH_MS));
  }, [cancel]);

  useEffect(() => cancel, [cancel]);
  return { step, start, cancel };
}
