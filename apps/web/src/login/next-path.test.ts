import { expect, test } from 'vitest';
import { pathAfterSignIn, signInPath } from './next-path';

test.each([
  ['/verify-email?token=Ab_9-z', '/verify-email?token=Ab_9-z'],
  [null, '/dashboard'],
  [undefined, '/dashboard'],
  ['', '/dashboard'],
  ['//evil.example', '/dashboard'],
  ['//evil.example/verify-email?token=abc', '/dashboard'],
  ['https://evil.example/verify-email?token=abc', '/dashboard'],
  ['/\\evil.example', '/dashboard'],
  ['/admin', '/dashboard'],
  ['/dashboard', '/dashboard'],
  ['/verify-email', '/dashboard'],
  ['/verify-email?token=', '/dashboard'],
  ['/verify-email?token=abc&next=//evil.example', '/dashboard'],
  ['/verify-email?token=abc#x', '/dashboard'],
  ['/verify-email?token=abc\n', '/dashboard'],
  [`/verify-email?token=${'a'.repeat(513)}`, '/dashboard'],
  ['/link?code=BCDF-GHJK', '/link?code=BCDF-GHJK'],
  ['/link?code=bcdfghjk', '/link?code=bcdfghjk'],
  ['/link', '/link'],
  ['/link?code=BCDF-GHJK&next=//evil.example', '/dashboard'],
  ['/link?code=BCDF-GHJKL', '/dashboard'],
  ['/link?code=BCDF-GHJK\n', '/dashboard'],
  ['/link?code=BCDF-GHJK#x', '/dashboard'],
  ['//evil.example/link?code=BCDF-GHJK', '/dashboard'],
  ['/link?code=', '/dashboard'],
])('next %j goes to %s', (next, expected) => {
  expect(pathAfterSignIn(next)).toBe(expected);
});

test('the sign-in path carries next encoded, and reads back as the same path', () => {
  const path = signInPath('/verify-email?token=abc');
  expect(path).toBe('/login?next=%2Fverify-email%3Ftoken%3Dabc');
  const next = new URLSearchParams(path.split('?')[1]).get('next');
  expect(pathAfterSignIn(next)).toBe('/verify-email?token=abc');
});
