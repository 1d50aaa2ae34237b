import { useEffect, useId, useRef, useState } from 'react';
import { useAppConfig, type TurnstileConfig } from '../api/app-config';
import { apiRequest } from '../api/client';

interface BotCheckProps {
  /** The action name sent with the token request ('login', 'signup'). */
  action: string;
  /** Called with a fresh token when the check passes, and with null when it is spent or expires. */
  onToken: (token: string | null) => void;
  /**
   * Bumped by the form after every failed submit: a token verifies once, so the widget fetches
   * a fresh one (DESIGN §5.5).
   */
  resetSignal: number;
}

/** The human-verification widget of SPEC §1: Turnstile in live mode, a checkbox in demo mode. */
export function BotCheck({ action, onToken, resetSignal }: BotCheckProps) {
  const config = useAppConfig();
  if (config.isPending) {
    return <p className="text-caption text-ink-300">Loading security check…</p>;
  }
  if (config.isError) {
    return (
      <p role="alert" className="text-caption text-danger">
        The security check could not load. Reload the page to try again.
      </p>
    );
  }
  const { turnstile } = config.data;
  return turnstile.kind === 'demo' ? (
    <DemoBotCheck config={turnstile} action={action} onToken={onToken} resetSignal={resetSignal} />
  ) : (
    <TurnstileWidget
      siteKey={turnstile.siteKey}
      action={action}
      onToken={onToken}
      resetSignal={resetSignal}
    />
  );
}

function DemoBotCheck({
  config,
  action,
  onToken,
  resetSignal,
}: BotCheckProps & { config: Extract<TurnstileConfig, { kind: 'demo' }> }) {
  const id = useId();
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const onTokenRef = useRef(onToken);
  onTokenRef.current = onToken;
  const checkedRef = useRef(checked);
  checkedRef.current = checked;

  async function requestToken(): Promise<boolean> {
    setBusy(true);
    setFailed(false);
    try {
      const { token } = await apiRequest<{ token: string }>(config.tokenUrl, {
        body: { sitekey: config.siteKey, action },
        token: null,
      });
      onTokenRef.current(token);
      return true;
    } catch (error) {
      console.warn('Bot check token request failed', error);
      onTokenRef.current(null);
      setFailed(true);
      return false;
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    if (resetSignal === 0 || !checkedRef.current) return;
    // The last token was spent by the failed submit: a checked box gets a fresh one.
    onTokenRef.current(null);
    void requestToken().then((ok) => {
      if (!ok) setChecked(false);
    });
    // requestToken reads only refs and stable props.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resetSignal]);

  async function onChange(next: boolean) {
    setChecked(next);
    if (!next) {
      onTokenRef.current(null);
      return;
    }
    if (!(await requestToken())) setChecked(false);
  }

  return (
    <div className="flex flex-col gap-1">
      <label
        htmlFor={id}
        className="flex min-h-11 w-fit cursor-pointer items-center gap-3 rounded-control border border-ink-600 bg-ink-900 px-4 py-2"
      >
        <input
          id={id}
          type="checkbox"
          className="size-5 accent-accent"
          checked={checked}
          disabled={busy}
          onChange={(event) => void onChange(event.target.checked)}
        />
        <span>Verify you are human</span>
      </label>
      {failed && (
        <p role="alert" className="text-caption text-danger">
          The security check failed. Please try again.
        </p>
      )}
    </div>
  );
}

interface TurnstileApi {
  render: (
    container: HTMLElement,
    options: {
      sitekey: string;
      action?: string;
      theme?: 'dark' | 'light' | 'auto';
      callback: (token: string) => void;
      'expired-callback': () => void;
      'error-callback': () => void;
    },
  ) => string;
  reset: (widgetId: string) => void;
  remove: (widgetId: string) => void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
let turnstileLoading: Promise<TurnstileApi> | null = null;

function loadTurnstile(): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  turnstileLoading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = TURNSTILE_SCRIPT;
    script.async = true;
    script.onload = () =>
      window.turnstile ? resolve(window.turnstile) : reject(new Error('Turnstile missing'));
    script.onerror = () => {
      turnstileLoading = null;
      reject(new Error('Turnstile failed to load'));
    };
    document.head.append(script);
  });
  return turnstileLoading;
}

function TurnstileWidget({ siteKey, action, onToken, resetSignal }: BotCheckProps & { siteKey: string }) {
  const container = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: TurnstileApi; id: string } | null>(null);
  const [failed, setFailed] = useState(false);
  const onTokenRef = useRef(onToken);
  onTokenRef.current = onToken;

  useEffect(() => {
    let cancelled = false;
    loadTurnstile().then(
      (api) => {
        if (cancelled || !container.current) return;
        const id = api.render(container.current, {
          sitekey: siteKey,
          action,
          theme: 'dark',
          callback: (token) => onTokenRef.current(token),
          'expired-callback': () => onTokenRef.current(null),
          'error-callback': () => onTokenRef.current(null),
        });
        widget.current = { api, id };
      },
      () => setFailed(true),
    );
    return () => {
      cancelled = true;
      if (widget.current) widget.current.api.remove(widget.current.id);
      widget.current = null;
    };
  }, [siteKey, action]);

  useEffect(() => {
    if (resetSignal === 0 || !widget.current) return;
    onTokenRef.current(null);
    widget.current.api.reset(widget.current.id);
  }, [resetSignal]);

  return (
    <div className="flex flex-col gap-1">
      <div ref={container} className="min-h-16" />
      {failed && (
        <p role="alert" className="text-caption text-danger">
          The security check could not load. Reload the page to try again.
        </p>
      )}
    </div>
  );
}
