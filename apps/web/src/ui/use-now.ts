import { useEffect, useState } from 'react';

/** The wall clock, re-read every `everyMs` while `active` (a countdown, a moving position). */
export function useNow(active: boolean, everyMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const handle = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(handle);
  }, [active, everyMs]);
  return now;
}
