/** One timer that runs `run` at the earliest time asked for (a later ask leaves it as it is). */
export function createWakeTimer(now: () => number, run: () => void) {
  let timer: NodeJS.Timeout | null = null;
  let wakeAt = Infinity;
  return {
    wake(at: number): void {
      if (at >= wakeAt) return;
      if (timer) clearTimeout(timer);
      wakeAt = at;
      timer = setTimeout(
        () => {
          timer = null;
          wakeAt = Infinity;
          run();
        },
        Math.max(0, at - now()),
      );
      timer.unref();
    },
    stop(): void {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
