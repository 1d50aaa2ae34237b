import { describe, expect, test } from 'vitest';
import {
  DEMO_SERVER,
  OptionError,
  isLoopbackServer,
  parseHueBridges,
  parseLifxTargets,
  parseNanoleafAddresses,
  parsePort,
  parseServer,
  resolveCommon,
} from './options.js';
import { defaultDataDir } from './system/paths.js';

describe('options', () => {
  test('LIFX targets take HOST:PORT lists, a bare host means 56700', () => {
    expect(parseLifxTargets('127.0.0.1:5000, 192.168.1.7,[::1]:9')).toEqual([
      { host: '127.0.0.1', port: 5000 },
      { host: '192.168.1.7', port: 56_700 },
      { host: '::1', port: 9 },
    ]);
    expect(parseLifxTargets('')).toEqual([]);
    expect(() => parseLifxTargets('127.0.0.1:99999')).toThrow(OptionError);
    expect(() => parseLifxTargets('a b:1')).toThrow(/not HOST:PORT/);
  });

  test('Hue bridges are HTTPS origins; a bare address gets https', () => {
    expect(parseHueBridges('192.168.1.20,https://127.0.0.1:8443/')).toEqual([
      'https://192.168.1.20',
      'https://127.0.0.1:8443',
    ]);
    expect(() => parseHueBridges('http://192.168.1.20')).toThrow(/HTTPS/);
  });

  test('Nanoleaf controllers are HOST[:PORT] lists (or http:// addresses); a bare host means 16021', () => {
    expect(parseNanoleafAddresses('192.168.1.30, http://127.0.0.1:4100/')).toEqual([
      { host: '192.168.1.30', port: 16_021 },
      { host: '127.0.0.1', port: 4100 },
    ]);
    expect(parseNanoleafAddresses('')).toEqual([]);
    expect(() => parseNanoleafAddresses('https://192.168.1.30')).toThrow(/--nanoleaf: .*plain HTTP/);
    expect(() => parseNanoleafAddresses('a b')).toThrow(OptionError);
  });

  test('a bad server or port is refused with a clear message', () => {
    expect(parseServer('https://flaglight.app/')).toBe('https://flaglight.app');
    expect(() => parseServer('flaglight')).toThrow(/not a URL/);
    expect(() => parseServer('ftp://x')).toThrow(/http/);
    expect(() => parseServer('https://user:pw@x.test')).toThrow(/password/);
    expect(() => parsePort('80a')).toThrow(/not a port/);
    expect(parsePort('0')).toBe(0);
  });

  test('--demo follows the local demo server unless --server says otherwise', () => {
    expect(resolveCommon({ demo: true }, {}).server).toBe(DEMO_SERVER);
    expect(resolveCommon({ demo: true, server: 'http://127.0.0.1:4000' }, {}).server).toBe(
      'http://127.0.0.1:4000',
    );
    expect(resolveCommon({}, { FLAGLIGHT_SERVER: 'http://localhost:5000' }).server).toBe(
      'http://localhost:5000',
    );
    expect(resolveCommon({ dataDir: '/tmp/x' }, {}).port).toBe(47_920);
  });

  test('loopback servers are told apart (the real LAN scan stays off for them)', () => {
    expect(isLoopbackServer('http://127.0.0.1:3000')).toBe(true);
    expect(isLoopbackServer('http://localhost:3000')).toBe(true);
    expect(isLoopbackServer('https://flaglight.app')).toBe(false);
  });

  test("the data folder follows each system's convention", () => {
    expect(
      defaultDataDir({
        platform: 'win32',
        env: { APPDATA: 'C:\\Users\\f\\AppData\\Roaming' },
        home: 'C:\\Users\\f',
      }),
    ).toBe('C:\\Users\\f\\AppData\\Roaming\\Flaglight');
    expect(defaultDataDir({ platform: 'darwin', env: {}, home: '/Users/f' })).toBe(
      '/Users/f/Library/Application Support/Flaglight',
    );
    expect(defaultDataDir({ platform: 'linux', env: { XDG_CONFIG_HOME: '/x/cfg' }, home: '/home/f' })).toBe(
      '/x/cfg/flaglight',
    );
    expect(defaultDataDir({ platform: 'linux', env: { XDG_CONFIG_HOME: 'relative' }, home: '/home/f' })).toBe(
      '/home/f/.config/flaglight',
    );
  });
});
