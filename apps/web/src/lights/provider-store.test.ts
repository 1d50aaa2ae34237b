import { describe, expect, test } from 'vitest';
import {
  createProviderStore,
  deriveDrivenProvider,
  EMPTY_PROVIDER_SNAPSHOTS,
  isProviderReady,
  type ProviderSnapshot,
  type ProviderSnapshots,
} from './provider-store';

const device = (id: string) => ({ id, label: id, connected: true });

function states(patch: {
  [P in keyof ProviderSnapshots]?: Partial<ProviderSnapshots[P]>;
}): ProviderSnapshots {
  return {
    lifx: { ...EMPTY_PROVIDER_SNAPSHOTS.lifx, ...patch.lifx },
    hue: { ...EMPTY_PROVIDER_SNAPSHOTS.hue, ...patch.hue },
    govee: { ...EMPTY_PROVIDER_SNAPSHOTS.govee, ...patch.govee },
  };
}

const ready: Partial<ProviderSnapshot> = {
  status: 'connected',
  devices: [device('a')],
  devicesLoaded: true,
  selectedIds: ['a'],
};

describe('provider store', () => {
  test('tells its listeners of a new state, and not of the same one again', () => {
    const store = createProviderStore(EMPTY_PROVIDER_SNAPSHOTS.hue);
    let calls = 0;
    const off = store.subscribe(() => (calls += 1));
    const next = { ...store.getSnapshot(), status: 'connecting' as const };
    store.set(next);
    store.set(next);
    expect(calls).toBe(1);
    expect(store.getSnapshot()).toBe(next);
    off();
    store.set({ ...next, status: 'connected' });
    expect(calls).toBe(1);
  });

  test('a provider is ready when connected with a listed light selected', () => {
    expect(isProviderReady({ ...EMPTY_PROVIDER_SNAPSHOTS.lifx, ...ready })).toBe(true);
    expect(isProviderReady({ ...EMPTY_PROVIDER_SNAPSHOTS.lifx, ...ready, selectedIds: [] })).toBe(false);
    expect(isProviderReady({ ...EMPTY_PROVIDER_SNAPSHOTS.lifx, ...ready, status: 'connecting' })).toBe(false);
    expect(isProviderReady({ ...EMPTY_PROVIDER_SNAPSHOTS.lifx, ...ready, devicesLoaded: false })).toBe(false);
  });

  test('Hue is driven when both are ready, else whichever is (SPEC §4)', () => {
    expect(deriveDrivenProvider(states({}))).toBeNull();
    expect(deriveDrivenProvider(states({ lifx: ready }))).toBe('lifx');
    expect(deriveDrivenProvider(states({ hue: ready }))).toBe('hue');
    expect(deriveDrivenProvider(states({ lifx: ready, hue: ready }))).toBe('hue');
    expect(deriveDrivenProvider(states({ lifx: ready, hue: { ...ready, selectedIds: [] } }))).toBe('lifx');
  });
});
