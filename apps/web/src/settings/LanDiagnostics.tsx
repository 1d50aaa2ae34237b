import { useState, type ReactNode } from 'react';
import { readBridgeLights, type BridgeLights } from '../companion/bridge';
import type { CompanionProvider } from '../companion/companion-lights';
import { COMPANION_TEXTS } from '../companion/companion-texts';
import { DiagnosticsButton } from './DiagnosticsButton';
import { DiagnosticsReport } from './DiagnosticsReport';
import { LAN_TEXTS as T } from './lan-texts';

/**
 * A LAN brand's diagnostics: after the click (the gesture that lets the page reach the local
 * bridge, DESIGN §9, with why the browser may ask about the local network), the companion on this
 * computer says which of that brand's lights answer and the colour it last sent each.
 */
export function LanDiagnostics({
  provider,
  buttonLabel,
  reportLabel,
  none,
  read = readBridgeLights,
}: {
  provider: CompanionProvider;
  buttonLabel: string;
  reportLabel: string;
  /** What to say when the companion here has none of this brand's lights. */
  none: ReactNode;
  /** The local bridge (tests give their own). */
  read?: () => Promise<BridgeLights>;
}) {
  const [state, setState] = useState<
    { kind: 'idle' } | { kind: 'checking' } | { kind: 'done'; result: BridgeLights }
  >({ kind: 'idle' });
  const run = () => {
    setState({ kind: 'checking' });
    void read().then((result) => setState({ kind: 'done', result }));
  };
  const lights =
    state.kind === 'done' && state.result.kind === 'answered'
      ? state.result.lights.filter((light) => light.provider === provider)
      : [];

  return (
    <div className="flex flex-col gap-2" aria-live="polite">
      <DiagnosticsButton label={buttonLabel} running={state.kind === 'checking'} onClick={run} />
      {state.kind !== 'idle' && <p className="text-caption text-ink-300">{COMPANION_TEXTS.whyPermission}</p>}
      {state.kind === 'checking' && <p role="status">{T.checking}</p>}
      {state.kind === 'done' && (
        <DiagnosticsReport label={reportLabel}>
          {state.result.kind === 'no_answer' ? (
            <p>{T.notRunning}</p>
          ) : (
            <>
              {!state.result.linked && <p>{T.notLinked}</p>}
              {lights.length === 0 ? (
                none
              ) : (
                <ul className="flex flex-col gap-1">
                  {lights.map((light) => (
                    <li key={light.id} className="flex items-center gap-2">
                      <span
                        aria-hidden="true"
                        className="size-3 shrink-0 rounded-full border border-ink-600"
                        style={{ background: light.lastColor?.css ?? 'transparent' }}
                      />
                      <span className={light.reachable ? 'text-ink-100' : 'text-danger'}>
                        {T.lightLine(light.label, light.reachable, light.lastColor?.name ?? null)}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </DiagnosticsReport>
      )}
    </div>
  );
}
