import { describe, expect, test } from 'vitest';
import {
  listAgreementFixtures,
  listLiveTimingFixtures,
  loadRaceControlFixture,
} from '../../test/fixtures.js';
import { combineAgreements, measureAgreement, type AgreementOptions } from './agreement.js';

// Regression floors on the bundled copies (the figures themselves are printed by
// `npm run agreement -w packages/core` and the core bench; decision 018).
const WHOLE: AgreementOptions = { window: 'whole', checkered: 'agree' };

function rows(options: AgreementOptions) {
  return listLiveTimingFixtures().map((name) => ({
    name,
    ...measureAgreement(loadRaceControlFixture(name), options),
  }));
}

describe('agreement with TrackStatus', () => {
  test('the live-timing set is the 28 complete sessions with TrackStatus', () => {
    expect(listLiveTimingFixtures()).toEqual(listAgreementFixtures());
    expect(listLiveTimingFixtures()).toHaveLength(28);
  });

  test('race control alone keeps its figure on the whole recordings (98.46%)', () => {
    expect(combineAgreements(rows(WHOLE)).ratio).toBeGreaterThanOrEqual(0.984);
  });

  test('--source f1 from TrackStatus’s first line: at least 99.5% overall and 99% per session', () => {
    const fused = rows({ ...WHOLE, beforeTrackStatus: 'exclude', source: 'f1' });
    expect(combineAgreements(fused).ratio).toBeGreaterThanOrEqual(0.995);
    for (const row of fused) expect([row.name, row.ratio >= 0.99]).toEqual([row.name, true]);
  });

  test('--source f1 never agrees less than race control alone on a session', () => {
    const alone = rows(WHOLE);
    rows({ ...WHOLE, source: 'f1' }).forEach((row, i) => {
      expect(row.ratio).toBeGreaterThanOrEqual((alone[i]?.ratio ?? 1) - 1e-9);
    });
  });

  test('checkered time is left out by default and counted as agreeing on request', () => {
    const fixture = loadRaceControlFixture('2020-belgium-race');
    const left = measureAgreement(fixture);
    const counted = measureAgreement(fixture, { checkered: 'agree' });
    expect(left.checkeredMs).toBeGreaterThan(0);
    expect(counted.totalMs - left.totalMs).toBe(left.checkeredMs);
    expect(counted.agreeMs - left.agreeMs).toBe(left.checkeredMs);
  });

  test('a fixture without live-timing streams cannot be fused', () => {
    expect(() => measureAgreement({ messages: [] }, { source: 'f1' })).toThrow(/no live_timing/);
  });
});
