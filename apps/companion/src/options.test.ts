import { F1_LIVE_TIMING_URL } from '@flaglight/f1-live';
import { describe, expect, test } from 'vitest';
import {
  DEMO_SERVER,
  OptionError,
  isLoopbackServer,
  GOVEE_DEFAULT_PORTS,
  parseGoveePorts,
  parseGoveeTargets,
  parseF1Live,
  parseHueBridges,
  parseLifxTargets,
  parseNanoleafAddresses,
  parsePort,
  parseServer,
  resolveCommon,
  resolveF1Live,
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

  test('Govee ports are SCAN,LISTEN,COMMAND (or with colons); COMMAND "source" is for a loopback simulator', () => {
    expect(GOVEE_DEFAULT_PORTS).toEqual({ scan: 4001, listen: 4002, command: 4003 });
    expect(parseGoveePorts('4001,4002,4003')).toEqual(GOVEE_DEFAULT_PORTS);
    expect(parseGoveePorts('5001:5002:source')).toEqual({ scan: 5001, listen: 5002, command: 'source' });
    expect(() => parseGoveePorts('4001,4002')).toThrow(/not SCAN,LISTEN,COMMAND/);
    expect(() => parseGoveePorts('4001,x,4003')).toThrow(
      /--govee-ports \(listen\): "x" is not a port number/,
    );
    expect(() => parseGoveePorts('4001,4002,70000')).toThrow(/above 65535/);
    expect(() => parseGoveePorts('0,4002,4003')).toThrow(/0 is not a port/);
    expect(() => parseGoveePorts('4001,4001,4003')).toThrow(/listen port must differ/);
  });

  test('Govee targets take HOST or HOST:PORT lists; a bare host means the scan port', () => {
    expect(parseGoveeTargets('127.0.0.1:5001, 192.168.1.30', 4001)).toEqual([
      { host: '127.0.0.1', port: 5001 },
      { host: '192.168.1.30', port: 4001 },
    ]);
    expect(parseGoveeTargets('', 4001)).toEqual([]);
    expect(() => parseGoveeTargets('a b', 4001)).toThrow(/not HOST or HOST:PORT/);
    expect(() => parseGoveeTargets('[::1]:4001', 4001)).toThrow(/IPv4 only/);
    expect(() => parseGoveeTargets('127.0.0.1:0', 4001)).toThrow(/0 is not a port/);
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

  test('--f1-live takes an http(s) hub address or off', () => {
    expect(parseF1Live('http://127.0.0.1:4100/signalrcore/')).toBe('http://127.0.0.1:4100/signalrcore');
    expect(parseF1Live(' OFF ')).toBeNull();
    expect(() => parseF1Live('livetiming')).toThrow(OptionError);
    expect(() => parseF1Live('livetiming')).toThrow(/neither a URL nor off/);
    expect(() => parseF1Live('ws://127.0.0.1/signalrcore')).toThrow(/http/);
    expect(() => parseF1Live('https://me:pw@livetiming.formula1.com/signalrcore')).toThrow(/password/);
    expect(() => parseF1Live('https://livetiming.formula1.com/signalrcore?id=1')).toThrow(/query/);
  });

  test("--f1-live defaults to F1's own feed, and to the demo server's simulator with --demo", () => {
    const real = resolveCommon({}, {});
    expect(resolveF1Live(undefined, real, {})).toBe(F1_LIVE_TIMING_URL);
    const demo = resolveCommon({ demo: true }, {});
    expect(resolveF1Live(undefined, demo, {})).toBe(`${DEMO_SERVER}/sims/f1live/signalrcore`);
    // The demo server may be the one that is down: the option and the environment still decide.
    expect(resolveF1Live('http://127.0.0.1:4100/signalrcore', demo, {})).toBe(
      'http://127.0.0.1:4100/signalrcore',
    );
    expect(resolveF1Live(undefined, real, { FLAGLIGHT_F1_LIVE: 'off' })).toBeNull();
    expect(resolveF1Live('off', real, { FLAGLIGHT_F1_LIVE: F1_LIVE_TIMING_URL })).toBeNull();
    expect(() => resolveF1Live(undefined, real, { FLAGLIGHT_F1_LIVE: 'nope' })).toThrow(/--f1-live/);
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
