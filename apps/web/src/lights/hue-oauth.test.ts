import { describe, expect, test } from 'vitest';
import { readHueAuthMessage, takeHueAuthParams } from './hue-oauth';

const APP = 'http://app.test';
const message = (data: unknown, origin = APP) => new MessageEvent('message', { data, origin });

describe('Hue OAuth results (SPEC §4 Bridge provider connection)', () => {
  test('popup messages count only from the app origin', () => {
    expect(readHueAuthMessage(message({ type: 'HUE_OAUTH_SUCCESS' }), APP)).toEqual({ ok: true });
    expect(readHueAuthMessage(message('HUE_OAUTH_SUCCESS'), APP)).toEqual({ ok: true });
    expect(readHueAuthMessage(message({ type: 'HUE_OAUTH_SUCCESS' }, 'http://evil.test'), APP)).toBeNull();
    expect(readHueAuthMessage(message({ type: 'HUE_OAUTH_ERROR', error: 'access_denied' }), APP)).toEqual({
      ok: false,
      reason: 'access_denied',
    });
    expect(readHueAuthMessage(message({ type: 'SOMETHING_ELSE' }), APP)).toBeNull();
    expect(readHueAuthMessage(message(null), APP)).toBeNull();
  });

  test('URL parameters are read from the query or the hash route, then stripped', () => {
    expect(takeHueAuthParams(`${APP}/?hue_success=true#/settings`)).toEqual({
      result: { ok: true },
      cleaned: `${APP}/#/settings`,
    });
    expect(takeHueAuthParams(`${APP}/#/settings?hue_error=access_denied&tab=x`)).toEqual({
      result: { ok: false, reason: 'access_denied' },
      cleaned: `${APP}/#/settings?tab=x`,
    });
    expect(takeHueAuthParams(`${APP}/#/dashboard`)).toEqual({ result: null, cleaned: `${APP}/#/dashboard` });
    expect(takeHueAuthParams(`${APP}/?hue_success=false#/settings`).result).toBeNull();
  });
});
