export * from './flag-timeline.js';
export * from './describe.js';
export * from './race-control.js';
