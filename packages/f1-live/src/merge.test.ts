import { deflateRawSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { applyDelta, inflateTopicData, stripKeyframes } from './merge.js';

describe('applyDelta (reference §5)', () => {
  test('objects merge key by key and missing keys stay', () => {
    const state = { Status: '1', Message: 'AllClear', Extra: { a: 1, b: 2 } };
    expect(applyDelta(state, { Status: '2', Extra: { b: 3 } })).toEqual({
      Status: '2',
      Message: 'AllClear',
      Extra: { a: 1, b: 3 },
    });
    expect(state.Status).toBe('1');
  });

  test('an index-keyed object updates a list in place and merges into the item', () => {
    const state = {
      Messages: [
        { Utc: 'a', Message: 'one' },
        { Utc: 'b', Message: 'two' },
      ],
    };
    expect(applyDelta(state, { Messages: { '1': { Message: 'TWO' } } })).toEqual({
      Messages: [
        { Utc: 'a', Message: 'one' },
        { Utc: 'b', Message: 'TWO' },
      ],
    });
  });

  test('the next index appends, several at once in index order', () => {
    const state = { Messages: [{ Message: 'zero' }] };
    expect(applyDelta(state, { Messages: { '2': { Message: 'two' }, '1': { Message: 'one' } } })).toEqual({
      Messages: [{ Message: 'zero' }, { Message: 'one' }, { Message: 'two' }],
    });
  });

  test('scalars, lists and null replace', () => {
    expect(applyDelta({ a: [1, 2, 3] }, { a: [4] })).toEqual({ a: [4] });
    expect(applyDelta({ a: { b: 1 } }, { a: null })).toEqual({ a: null });
    expect(applyDelta('x', 5)).toBe(5);
    expect(applyDelta(undefined, { a: 1 })).toEqual({ a: 1 });
  });

  test('_kf markers are dropped at every level', () => {
    expect(stripKeyframes({ _kf: true, Lines: { '1': { _kf: true, X: 1 } }, L: [{ _kf: true }] })).toEqual({
      Lines: { '1': { X: 1 } },
      L: [{}],
    });
    expect(applyDelta({ A: 1 }, { _kf: true, B: 2 })).toEqual({ A: 1, B: 2 });
  });

  test('_deleted removes the named keys of an object', () => {
    const state = { Stints: { '26': { Lap: 1 }, '27': { Lap: 2 }, '28': { Lap: 3 } } };
    expect(applyDelta(state, { Stints: { _deleted: ['27'], '28': { Lap: 4 } } })).toEqual({
      Stints: { '26': { Lap: 1 }, '28': { Lap: 4 } },
    });
  });

  test('_deleted on a list removes those items', () => {
    expect(applyDelta({ L: ['a', 'b', 'c'] }, { L: { _deleted: ['1'] } })).toEqual({ L: ['a', 'c'] });
  });

  test('an object with other keys than indices replaces a list', () => {
    expect(applyDelta({ L: ['a'] }, { L: { x: 1 } })).toEqual({ L: { x: 1 } });
  });
});

describe('.z topics (reference §4)', () => {
  const encode = (value: unknown) => deflateRawSync(Buffer.from(JSON.stringify(value))).toString('base64');

  test('base64 of raw DEFLATE inflates to the JSON', () => {
    const value = {
      Entries: [{ Utc: '2026-09-24T12:54:30.679Z', Cars: { '1': { Channels: { '0': 11000 } } } }],
    };
    expect(inflateTopicData(encode(value))).toEqual(value);
  });

  test('surrounding quotes and a BOM are tolerated', () => {
    expect(inflateTopicData(`\uFEFF"${encode({ a: 1 })}"`)).toEqual({ a: 1 });
  });

  test('garbage throws instead of producing a state', () => {
    expect(() => inflateTopicData('!!not base64!!')).toThrow();
    expect(() => inflateTopicData({ a: 1 })).toThrow(TypeError);
  });
});
