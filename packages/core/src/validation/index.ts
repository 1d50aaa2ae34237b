export * from './messages.js';
export * from './validate.js';
