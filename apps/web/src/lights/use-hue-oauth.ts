import { POPUP_CLOSED_RECHECK_MS, POPUP_HEIGHT, POPUP_TIMEOUT_MS, POPUP_WIDTH } from '@flaglight/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { startHueAuth } from './hue-api';
import { readHueAuthMessage, type HueAuthResult } from './hue-oauth';
import { LIGHTS_TEXTS as T } from './lights-texts';

/** The server's callback page broadcasts its result here too (same origin only, by design). */
const HUE_OAUTH_CHANNEL = 'flaglight-hue-oauth';

/** How often a closed popup is noticed. */
const POPUP_POLL_MS = 500;

export interface HueOAuthCallbacks {
  onResult: (result: HueAuthResult) => void;
  /** The popup was closed by hand: recheck the status (SPEC §4: after 1 s). */
  onClosed: () => void;
  onError: (message: string) => void;
}

function popupFeatures(): string {
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - POPUP_WIDTH) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - POPUP_HEIGHT) / 2));
  return `popup=yes,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`;
}

/**
 * SPEC §4 Bridge provider connection: a 600×700 popup to the Hue authorisation page; the result
 * comes back by message from this app's origin; 60 s time-out; a popup closed by hand resets and
 * rechecks after 1 s. The popup opens inside the click, so blockers let it through.
 */
export function useHueOAuth(callbacks: HueOAuthCallbacks) {
  const [connecting, setConnecting] = useState(false);
  const latest = useRef(callbacks);
  latest.current = callbacks;
  const flow = useRef<{ popup: Window; timeout: number; poll: number } | null>(null);
  const recheck = useRef<number | null>(null);

  const finish = useCallback((closePopup: boolean) => {
    const current = flow.current;
    flow.current = null;
    setConnecting(false);
    if (!current) return;
    window.clearTimeout(current.timeout);
    window.clearInterval(current.poll);
    if (closePopup && !current.popup.closed) current.popup.close();
  }, []);

  useEffect(() => {
    function onMessage(event: MessageEvent) {
      // The popup may close before its message is handled: a result during the recheck wait counts.
      if (!flow.current && recheck.current === null) return;
      const result = readHueAuthMessage(event, window.location.origin);
      if (!result) return;
      if (recheck.current !== null) window.clearTimeout(recheck.current);
      recheck.current = null;
      finish(true);
      latest.current.onResult(result);
    }
    window.addEventListener('message', onMessage);
    // The callback page also broadcasts on this origin, for when the popup lost its opener.
    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(HUE_OAUTH_CHANNEL);
    channel?.addEventListener('message', (event: MessageEvent<unknown>) =>
      onMessage(new MessageEvent('message', { data: event.data, origin: window.location.origin })),
    );
    return () => {
      window.removeEventListener('message', onMessage);
      channel?.close();
      finish(true);
      if (recheck.current !== null) window.clearTimeout(recheck.current);
    };
  }, [finish]);

  const start = useCallback(() => {
    if (flow.current) return;
    const popup = window.open('', 'flaglight-hue-oauth', popupFeatures());
    if (!popup) {
      latest.current.onError(T.popupBlocked);
      return;
    }
    const timeout = window.setTimeout(() => {
      finish(true);
      latest.current.onError(T.oauthTimedOut);
    }, POPUP_TIMEOUT_MS);
    const poll = window.setInterval(() => {
      if (!popup.closed) return;
      finish(false);
      recheck.current = window.setTimeout(() => {
        recheck.current = null;
        latest.current.onClosed();
      }, POPUP_CLOSED_RECHECK_MS);
    }, POPUP_POLL_MS);
    flow.current = { popup, timeout, poll };
    setConnecting(true);
    startHueAuth().then(
      (authUrl) => {
        if (flow.current?.popup === popup) popup.location.href = authUrl;
      },
      () => {
        if (flow.current?.popup !== popup) return;
        finish(true);
        latest.current.onError(T.hueStartFailed);
      },
    );
  }, [finish]);

  const cancel = useCallback(() => finish(true), [finish]);

  return { connecting, start, cancel };
}
