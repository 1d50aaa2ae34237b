import { api, type DeviceState } from '@flaglight/contract';
import { describe, expect, test, vi } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import type { FollowerStatus } from '../follow/follower.js';
import { createLogger } from '../system/log.js';
import { ServerError, type ServerApi } from './server-api.js';
import { currentDeviceState, startStateReporter, type StateSources } from './state-report.js';

function sources(
  over: Partial<{
    paused: boolean;
    stream: FollowerStatus['state'];
    message: string | null;
    showing: string | null;
  }> = {},
) {
  const now = {
    paused: false,
    stream: 'following' as FollowerStatus['state'],
    message: null as string | null,
    showing: 'green' as string | null,
    ...over,
  };
  const given: StateSources = {
    token: () => 'fl_device_token',
    bridgePort: () => 47961,
    paused: () => now.paused,
    stream: () => ({ state: now.stream, message: now.message }),
    showing: () => now.showing,
  };
  return { given, now };
}

describe('what the companion says of itself', () => {
  test("its stream in the web app's words, checked against the contract", () => {
    expect(currentDeviceState(sources().given)).toEqual({
      bridgePort: 47961,
      paused: false,
      stream: 'following',
      message: null,
      showing: 'green',
    });
    expect(currentDeviceState(sources({ stream: 'polling' }).given)?.stream).toBe('following');
    expect(currentDeviceState(sources({ stream: 'connecting' }).given)?.stream).toBe('reconnecting');
    expect(currentDeviceState(sources({ stream: 'unlinked' }).given)).toBeNull();
    // A server's words with a line break or a bidi override go as one clean line.
    const refused = currentDeviceState(
      sources({ stream: 'refused', message: 'Trial ended\n2026-11-29T10:00:00Z INFO forged \u202e' }).given,
    );
    expect(refused?.message).toBe('Trial ended\\n2026-11-29T10:00:00Z INFO forged \\u{202e}');
    expect(api.devices.reportState.body.safeParse(refused).success).toBe(true);
  });

  test('each change is told once; a refused report is tried again later, and logged once', async () => {
    const reports: DeviceState[] = [];
    let fail = 0;
    const server = {
      reportState: vi.fn(async (_token: string, state: DeviceState) => {
        if (fail > 0) {
          fail -= 1;
          throw new ServerError(503, 'unavailable', 'down');
        }
        reports.push(state);
      }),
    } as unknown as ServerApi;
    const log = createLogger({ console: false });
    const { given, now } = sources();
    const reporter = startStateReporter({
      api: server,
      log,
      sources: given,
      timing: { checkMs: 10, retryMs: 50, refreshMs: 60_000 },
    });
    try {
      await vi.waitFor(() => expect(reports).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(reports).toHaveLength(1);
      now.paused = true;
      await vi.waitFor(() => expect(reports.at(-1)?.paused).toBe(true));
      fail = 2;
      now.showing = 'vsc';
      await vi.waitFor(() => expect(reports.at(-1)?.showing).toBe('vsc'), { timeout: paced(2_000) });
      expect(log.recent().filter((e) => e.message.includes('did not take'))).toHaveLength(1);
    } finally {
      reporter.close();
    }
  });
});
