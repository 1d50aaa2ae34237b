import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  isRecordingName,
  listRecordingNames,
  requireRecordingName,
  UnknownRecordingError,
} from './recording-names.js';

describe('recording names', () => {
  test('every listed name is taken as it is, and nothing path-like is on the list', () => {
    const names = listRecordingNames();
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect(requireRecordingName(name)).toBe(name);
      expect(name).toMatch(/^[a-z0-9-]+$/);
    }
  });

  test('any other text is refused with a short, printable, quote-safe echo of it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string()), (name) => {
        fc.pre(!isRecordingName(name));
        let error: unknown;
        try {
          requireRecordingName(name, '/_control/fixtures');
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(UnknownRecordingError);
        const message = (error as Error).message;
        expect(message).toMatch(
          /^Unknown recording "[\x20-\x21\x23-\x7e]{0,40}…?": pick one of GET \/_control\/fixtures$/,
        );
      }),
    );
  });
});
