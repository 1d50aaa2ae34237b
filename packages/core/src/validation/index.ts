export * from './messages.js';
export * from './validate.js';
export * from './email.js';
