export * from './trial.js';
