export * from './activity.js';
export * from './fallback.js';
export * from './tracked-session.js';
export * from './polling.js';
