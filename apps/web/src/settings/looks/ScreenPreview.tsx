import type { ScreenLightState } from '@flaglight/lights';
import { useSyncExternalStore } from 'react';
import { useAuth } from '../../auth/auth-context';
import { useLightControl } from '../../lights/light-control-context';
import { useReducedMotion } from '../../ui/use-reduced-motion';
import { useLocalSettings } from '../local-settings';
import { LOOKS_TEXTS as T } from './looks-texts';

const OFF: Pick<ScreenLightState, 'on' | 'color' | 'brightness' | 'css' | 'transitionMs'> = {
  on: false,
  color: null,
  brightness: 0,
  css: 'rgb(0 0 0)',
  transitionMs: 0,
};
const noSubscribe = () => () => undefined;
const offState = () => OFF;

/**
 * The on-screen light, small, beside Try: what a tried flag looks like on the screen (the same
 * light as the dashboard's, driven by the same engine), so a fan without smart lights sees it too.
 */
export function ScreenPreview() {
  const { user } = useAuth();
  const [settings] = useLocalSettings(user?.email);
  const screen = useLightControl().engine?.screen;
  const state = useSyncExternalStore(
    screen?.subscribeState ?? noSubscribe,
    screen?.getState ?? offState,
    offState,
  );
  const reducedMotion = useReducedMotion();
  const shown = settings.screenLight ? state : OFF;
  const label =
    shown.on && shown.color ? `${shown.color.name}, ${Math.round(shown.brightness * 100)}%` : 'off';
  return (
    <div className="flex items-center gap-3">
      <div
        data-testid="looks-screen-preview"
        data-color={shown.on && shown.color ? shown.color.name : 'off'}
        role="img"
        aria-label={`On-screen light: ${label}`}
        className="h-14 w-24 shrink-0 rounded-control border border-ink-600"
        style={{
          backgroundColor: shown.css,
          transitionProperty: 'background-color',
          transitionDuration: `${reducedMotion ? 0 : shown.transitionMs}ms`,
        }}
      />
      <p className="text-caption text-ink-300">
        {settings.screenLight ? T.screenPreview : T.screenPreviewOff}
      </p>
    </div>
  );
}
