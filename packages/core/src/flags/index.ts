export * from './classify.js';
export * from './tracker.js';
export * from './types.js';
