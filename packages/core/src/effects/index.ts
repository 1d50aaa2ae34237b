export * from './colors.js';
export * from './program.js';
