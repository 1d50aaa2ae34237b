export * from './delay.js';
