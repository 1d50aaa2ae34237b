import { describe, expect, test } from 'vitest';
import { createRaceLook } from './joining-lights';

describe('the race look a ticked light takes up', () => {
  test('a flag counts from when it starts on the lights, behind the delay', () => {
    let now = 1_000;
    const look = createRaceLook(() => now);
    expect(look.current()).toBeNull();
    look.played('green');
    look.played('yellow', 6_000);
    expect(look.current()).toBe('green');
    now = 6_000;
    expect(look.current()).toBe('yellow');
  });

  test('a fastest lap is momentary: the lasting flag stays', () => {
    const look = createRaceLook(() => 0);
    look.played('red', 0);
    look.played('fastest_lap', 0);
    expect(look.current()).toBe('red');
  });

  test('a flag played earlier than one queued replaces what was queued after it', () => {
    let now = 0;
    const look = createRaceLook(() => now);
    look.played('yellow', 5_000);
    look.played('green', 1_000);
    now = 6_000;
    expect(look.current()).toBe('green');
  });

  test('the connection ending forgets it: a light ticked afterwards is left as it is', () => {
    const look = createRaceLook(() => 0);
    look.played('red', 0);
    look.forget();
    expect(look.current()).toBeNull();
  });
});
