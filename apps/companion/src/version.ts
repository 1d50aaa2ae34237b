declare const __APP_VERSION__: string | undefined;

/** The companion's version: set by the bundler in a build, the package's own under tsx. */
export const APP_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.1.0';
