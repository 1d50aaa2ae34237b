export * from './devices.js';
export * from './live.js';
export * from './providers.js';
export * from './race-control.js';
export * from './race.js';
export * from './ui.js';
export * from './user.js';
