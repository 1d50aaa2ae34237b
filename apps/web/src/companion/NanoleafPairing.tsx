import { Link2, RotateCcw } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { buttonClass } from '../ui/button-styles';
import { NANOLEAF_PAIRING_SECONDS, pairNanoleaf, type NanoleafPairing as PairingResult } from './bridge';
import { COMPANION_TEXTS as T } from './companion-texts';

type PairState =
  { kind: 'idle' } | { kind: 'pairing'; startedAt: number } | { kind: 'done'; result: PairingResult };

function Outcome({ result }: { result: PairingResult }) {
  switch (result.kind) {
    case 'paired':
      return <p>{T.nanoleafPaired(result.name)}</p>;
    case 'refused':
      return <p>{T.nanoleafRefused(result.message)}</p>;
    case 'unsupported':
      return <p>{T.nanoleafUnsupported}</p>;
    case 'no_answer':
      return <p>{T.nanoleafNoAnswer}</p>;
  }
}

/** Seconds left of the companion's wait for the power button, counted down once a second. */
function useSecondsLeft(startedAt: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (startedAt === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [startedAt]);
  if (startedAt === null) return NANOLEAF_PAIRING_SECONDS;
  return Math.max(0, NANOLEAF_PAIRING_SECONDS - Math.floor((now - startedAt) / 1_000));
}

/**
 * Pair a Nanoleaf through the companion on this computer (DESIGN §9): the button press is the user
 * gesture that lets the page reach the local bridge, after saying why the browser may ask about the
 * local network. The companion waits for the controller's power button, then answers.
 */
export function NanoleafPairing({
  pair = pairNanoleaf,
}: {
  /** The local bridge (tests give their own). */
  pair?: (address?: string) => Promise<PairingResult>;
}) {
  const [state, setState] = useState<PairState>({ kind: 'idle' });
  const [address, setAddress] = useState('');
  const secondsLeft = useSecondsLeft(state.kind === 'pairing' ? state.startedAt : null);
  const addressId = useId();
  const hintId = useId();
  const titleId = useId();

  const run = () => {
    setState({ kind: 'pairing', startedAt: Date.now() });
    void pair(address.trim() || undefined).then((result) => setState({ kind: 'done', result }));
  };
  const failed = state.kind === 'done' && state.result.kind !== 'paired';

  return (
    <section
      aria-labelledby={titleId}
      className="flex flex-col gap-2 rounded-control border border-ink-600 p-3"
    >
      <h3 id={titleId} className="font-semibold">
        {T.nanoleafTitle}
      </h3>
      <p className="text-caption text-ink-300">{T.nanoleafIntro}</p>
      <div className="flex flex-col gap-1">
        <label htmlFor={addressId} className="text-caption text-ink-300">
          {T.nanoleafAddress}
        </label>
        <input
          id={addressId}
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          placeholder="192.168.1.30"
          aria-describedby={hintId}
          disabled={state.kind === 'pairing'}
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          className="min-h-11 max-w-xs rounded-control border border-ink-600 bg-ink-800 px-3 text-ink-100 placeholder:text-ink-400"
        />
        <p id={hintId} className="text-caption text-ink-300">
          {T.nanoleafAddressHint}
        </p>
      </div>
      <div className="flex flex-col gap-2" aria-live="polite">
        {!failed && (
          <button
            type="button"
            className={buttonClass('secondary', 'sm', 'self-start')}
            disabled={state.kind === 'pairing'}
            onClick={run}
          >
            <Link2 aria-hidden="true" className="size-4" />
            {T.nanoleafPair}
          </button>
        )}
        {state.kind !== 'idle' && <p className="text-caption text-ink-300">{T.whyPermission}</p>}
        {state.kind === 'pairing' && (
          <div role="status" className="flex flex-col gap-1">
            <p className="font-semibold">{T.nanoleafHold}</p>
            <p>{T.nanoleafWaiting(secondsLeft)}</p>
            <progress
              aria-label={T.nanoleafWaitLabel}
              max={NANOLEAF_PAIRING_SECONDS}
              value={secondsLeft}
              className="h-2 w-full max-w-xs accent-accent"
            />
          </div>
        )}
        {state.kind === 'done' && (
          <div role="status">
            <Outcome result={state.result} />
          </div>
        )}
        {failed && (
          <button type="button" className={buttonClass('secondary', 'sm', 'self-start')} onClick={run}>
            <RotateCcw aria-hidden="true" className="size-4" />
            {T.tryAgain}
          </button>
        )}
      </div>
    </section>
  );
}
