export * from './types.js';
export * from './limits.js';
export * from './presets.js';
export * from './steps.js';
export * from './follow.js';
