import type { ScreenDriver, ScreenLightState } from '@flaglight/lights';
import { Maximize, Minimize, MonitorSmartphone } from 'lucide-react';
import { useContext, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { flagLabel } from '../../live/display-flag';
import { LiveConnectionContext } from '../../live/live-connection-context';
import { NoFlashingChoice } from '../../settings/looks/NoFlashingSwitch';
import { buttonClass } from '../../ui/button-styles';
import { useReducedMotion } from '../../ui/use-reduced-motion';
import { ScreenFlashingChoice } from './ScreenFlashingChoice';

const OFF: ScreenLightState = {
  on: false,
  color: null,
  brightness: 0,
  css: 'rgb(0 0 0)',
  transitionMs: 0,
  changedAt: 0,
};
const noSubscribe = () => () => undefined;
const offState = () => OFF;

/**
 * The on-screen light: this page shows the flag colour with the same effect timings as the real
 * lights (screen driver + effect player), for fans without smart lights and for demos. It is a
 * light like any other: ticked (the default), Race Control connects with it alone. "Full screen"
 * fills the display with the colour and the flag's name, large enough to read across a room
 * (Escape leaves, as browsers do).
 */
export function ScreenLight({
  screen,
  enabled = true,
  onEnabledChange,
}: {
  screen: ScreenDriver | null;
  /** The on-screen light counts as one of the user's lights. */
  enabled?: boolean;
  onEnabledChange?: (enabled: boolean) => void;
}) {
  const driven = useSyncExternalStore(
    screen?.subscribeState ?? noSubscribe,
    screen?.getState ?? offState,
    offState,
  );
  const state = enabled ? driven : OFF;
  const checkboxId = useId();
  const live = useContext(LiveConnectionContext);
  const flagName = live && live.state.status !== 'disconnected' ? flagLabel(live.state.shown.flag) : null;
  const swatch = useRef<HTMLDivElement>(null);
  const [fullscreen, setFullscreen] = useState(false);
  const reducedMotion = useReducedMotion();

  useEffect(() => {
    const onChange = () =>
      setFullscreen(document.fullscreenElement === swatch.current && swatch.current !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const canFullscreen = typeof document !== 'undefined' && document.fullscreenEnabled === true;
  const label =
    state.on && state.color ? `${state.color.name}, ${Math.round(state.brightness * 100)}%` : 'off';

  async function toggleFullscreen() {
    if (document.fullscreenElement) await document.exitFullscreen();
    else await swatch.current?.requestFullscreen();
  }

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 className="flex items-center gap-2 text-lg font-semibold">
          <MonitorSmartphone aria-hidden="true" className="size-5 text-accent" />
          On-screen light
        </h3>
        {canFullscreen && (
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            onClick={() => void toggleFullscreen()}
          >
            {fullscreen ? (
              <Minimize aria-hidden="true" className="size-4" />
            ) : (
              <Maximize aria-hidden="true" className="size-4" />
            )}
            {fullscreen ? 'Exit full screen' : 'Full screen'}
          </button>
        )}
      </div>
      {onEnabledChange && (
        <label htmlFor={checkboxId} className="flex min-h-11 cursor-pointer items-center gap-3">
          <input
            id={checkboxId}
            type="checkbox"
            className="size-5 accent-accent"
            checked={enabled}
            onChange={(event) => onEnabledChange(event.target.checked)}
          />
          <span className="font-semibold">Use this screen as a light</span>
        </label>
      )}
      <NoFlashingChoice />
      {enabled && reducedMotion && <ScreenFlashingChoice />}
      <div
        ref={swatch}
        data-testid="screen-light"
        data-color={state.on && state.color ? state.color.name : 'off'}
        role="img"
        aria-label={`On-screen light: ${label}`}
        className={`relative flex h-28 items-end justify-start rounded-control border border-ink-600 p-3 ${
          fullscreen ? 'flex-col items-center justify-center gap-6' : ''
        }`}
        style={{
          backgroundColor: state.css,
          transitionProperty: 'background-color',
          transitionDuration: `${reducedMotion ? 0 : state.transitionMs}ms`,
        }}
      >
        {fullscreen && flagName && (
          <p
            data-testid="screen-light-flag"
            className="rounded-control bg-black/55 px-6 py-3 text-center font-display text-[clamp(2.5rem,12vmin,9rem)] leading-none font-bold tracking-tight text-white uppercase italic"
          >
            {flagName}
          </p>
        )}
        {fullscreen && (
          <p className="rounded-control bg-black/60 px-3 py-1.5 text-ink-100">
            Press Escape to leave full screen
          </p>
        )}
      </div>
      <p className="text-caption text-ink-300">
        {enabled
          ? "Shows every flag with your lights' timings. Works without smart lights: keep this tab open on a screen near the TV (Full screen on a phone turned sideways fills it)."
          : 'Not used as a light: tick the box above to follow the race on this screen.'}
      </p>
    </div>
  );
}
