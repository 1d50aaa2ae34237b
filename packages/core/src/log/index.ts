export * from './escape-log-text.js';
