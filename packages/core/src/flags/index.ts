export * from './classify.js';
export * from './tracker.js';
export * from './types.js';
export * from './fusion.js';
export * from './live-timing.js';
