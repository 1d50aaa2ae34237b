export * from './color.js';
