import { calibrateDelay } from '@flaglight/core';
import { Crosshair, Play, RotateCcw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { buttonClass } from '../ui/button-styles';

const TICK_MS = 100;

interface CalibrationToolProps {
  /** The seconds measured between Start and Mark. */
  onMeasured: (seconds: number) => void;
  title?: string;
  /** Which screen the user watches for Mark ("your TV or stream", "this room's TV"). */
  screen?: string;
  /** Seconds between Start and Mark; whole seconds (SPEC §4) unless a caller needs finer. */
  measure?: (startedAt: number, markedAt: number) => number;
}

/**
 * SPEC §4 calibration: Start when a moment reaches you first, Mark when the TV shows it;
 * the rounded seconds between them become the delay.
 */
export function CalibrationTool({
  onMeasured,
  title = 'Calibrate',
  screen = 'your TV or stream',
  measure = calibrateDelay,
}: CalibrationToolProps) {
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [last, setLast] = useState<number | null>(null);

  useEffect(() => {
    if (startedAt === null) return;
    const timer = window.setInterval(() => setNow(Date.now()), TICK_MS);
    return () => window.clearInterval(timer);
  }, [startedAt]);

  const start = () => {
    const at = Date.now();
    setStartedAt(at);
    setNow(at);
    setLast(null);
  };

  const mark = () => {
    if (startedAt === null) return;
    const seconds = measure(startedAt, Date.now());
    setStartedAt(null);
    setLast(seconds);
    onMeasured(seconds);
  };

  const elapsed = startedAt === null ? 0 : Math.max(0, now - startedAt) / 1000;

  return (
    <div
      role="group"
      aria-label={title}
      className="flex flex-col gap-3 rounded-control border border-ink-600 bg-ink-900 p-4"
    >
      <h3 className="font-semibold text-ink-100">{title}</h3>
      <ol className="list-decimal space-y-1 pl-5 text-caption text-ink-300">
        <li>
          Press <strong className="text-ink-100">Start</strong> the moment something happens first where it is
          live: the lights with the delay off, or the live timing in the official app.
        </li>
        <li>
          Press <strong className="text-ink-100">Mark</strong> when {screen} shows the same moment.
        </li>
      </ol>
      <div className="flex flex-wrap items-center gap-3">
        {startedAt === null ? (
          <button type="button" onClick={start} className={buttonClass('secondary', 'sm')}>
            {last === null ? (
              <Play aria-hidden="true" className="size-4" />
            ) : (
              <RotateCcw aria-hidden="true" className="size-4" />
            )}
            {last === null ? 'Start' : 'Start again'}
          </button>
        ) : (
          <>
            <button type="button" onClick={mark} className={buttonClass('primary', 'sm')}>
              <Crosshair aria-hidden="true" className="size-4" />
              Mark
            </button>
            <button type="button" onClick={() => setStartedAt(null)} className={buttonClass('ghost', 'sm')}>
              Cancel calibration
            </button>
          </>
        )}
        {startedAt !== null && (
          <span
            aria-hidden="true"
            data-testid="calibration-elapsed"
            className="font-mono text-lg text-ink-100 tabular-nums"
          >
            {elapsed.toFixed(1)} s
          </span>
        )}
        <p aria-live="polite" className="text-ink-100">
          {startedAt !== null && <span className="sr-only">Timing. Press Mark when {screen} shows it.</span>}
          {startedAt === null && last !== null && <>Measured {last} s</>}
        </p>
      </div>
    </div>
  );
}
