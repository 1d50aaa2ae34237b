import { performance } from 'node:perf_hooks';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Wall-clock milliseconds with sub-millisecond precision: comparable with the simulators' timestamps. */
export const now = () => performance.timeOrigin + performance.now();
