import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  colorToHsbk,
  decodeLabel,
  decodeLifxPacket,
  encodeLabel,
  encodeLifxPacket,
  type Hsbk,
  hsbkToColor,
  LIFX_WAVEFORM,
  type LifxHeader,
  type LifxMessage,
  LifxPacketError,
  skewRatioFromWire,
  skewRatioToWire,
} from './protocol.js';

const hex = (text: string): Uint8Array => Uint8Array.from(text.trim().split(/\s+/), (b) => parseInt(b, 16));
const SOURCE = 0x47414c46; // bytes read "FLAG"

describe('golden datagrams (lan-lights.md §1.6)', () => {
  const setColor = hex(`
    31 00 00 14 46 4c 41 47 d0 73 d5 12
    34 56 00 00 00 00 00 00 00 00 02 07
    00 00 00 00 00 00 00 00 66 00 00 00
    00 ab 2a ff ff ff ff ac 0d fa 00 00
    00`);
  const header: LifxHeader = {
    tagged: false,
    source: SOURCE,
    target: 'd0:73:d5:12:34:56',
    resRequired: false,
    ackRequired: true,
    sequence: 7,
  };
  const yellow = { hue: 10923, saturation: 65535, brightness: 65535, kelvin: 3500 };

  test('SetColor yellow with an ack encodes to the documented 49 bytes', () => {
    const bytes = encodeLifxPacket(header, { type: 'LightSetColor', color: yellow, durationMs: 250 });
    expect(Array.from(bytes)).toEqual(Array.from(setColor));
  });

  test('the documented SetColor decodes to its fields', () => {
    expect(decodeLifxPacket(setColor)).toEqual({
      header,
      message: { type: 'LightSetColor', color: yellow, durationMs: 250 },
    });
  });

  test('tagged GetService to every device encodes as documented', () => {
    const golden = hex(`24 00 00 34 46 4c 41 47 ${'00 '.repeat(24)} 02 00 00 00`);
    const bytes = encodeLifxPacket(
      {
        tagged: true,
        source: SOURCE,
        target: '00:00:00:00:00:00',
        resRequired: false,
        ackRequired: false,
        sequence: 0,
      },
      { type: 'GetService' },
    );
    expect(Array.from(bytes)).toEqual(Array.from(golden));
    expect(decodeLifxPacket(golden).header.tagged).toBe(true);
  });

  test('the flag-blink SetWaveformOptional payload matches §1.5', () => {
    const bytes = encodeLifxPacket(header, {
      type: 'LightSetWaveformOptional',
      transient: true,
      color: { hue: 0, saturation: 65535, brightness: 0, kelvin: 3500 },
      periodMs: 500,
      cycles: 6,
      skewRatio: skewRatioToWire(0.5),
      waveform: LIFX_WAVEFORM.PULSE,
      setHue: false,
      setSaturation: false,
      setBrightness: true,
      setKelvin: false,
    });
    expect(Array.from(bytes.subarray(36))).toEqual(
      Array.from(hex('00 01 00 00 ff ff 00 00 ac 0d f4 01 00 00 00 00 c0 40 00 00 04 00 00 01 00')),
    );
    expect(bytes.length).toBe(61);
  });

  test('reserved flag bits are masked on read (byte 22 = 0x07)', () => {
    const bytes = setColor.slice();
    bytes[22] = 0x07;
    const { header: read } = decodeLifxPacket(bytes);
    expect(read.ackRequired).toBe(true);
    expect(read.resRequired).toBe(true);
  });
});

describe('malformed datagrams', () => {
  test('short, wrong size field, wrong protocol and wrong payload length are refused', () => {
    const good = encodeLifxPacket(
      {
        tagged: false,
        source: 1,
        target: 'd0:73:d5:00:00:01',
        resRequired: false,
        ackRequired: false,
        sequence: 1,
      },
      { type: 'LightSetColor', color: { hue: 0, saturation: 0, brightness: 0, kelvin: 3500 }, durationMs: 0 },
    );
    expect(() => decodeLifxPacket(good.subarray(0, 20))).toThrow(LifxPacketError);
    expect(() => decodeLifxPacket(good.subarray(0, 40))).toThrow(LifxPacketError);
    const wrongProtocol = good.slice();
    wrongProtocol[3] = 0x15;
    expect(() => decodeLifxPacket(wrongProtocol)).toThrow(LifxPacketError);
    const shortPayload = good.slice(0, 40);
    shortPayload[0] = 40;
    expect(() => decodeLifxPacket(shortPayload)).toThrow(/payload/);
  });

  test('an unknown type decodes with its number and payload', () => {
    const bytes = encodeLifxPacket(
      {
        tagged: false,
        source: 9,
        target: 'd0:73:d5:00:00:01',
        resRequired: false,
        ackRequired: false,
        sequence: 3,
      },
      { type: 'Unknown', typeNumber: 506, payload: Uint8Array.of(1, 2, 3) },
    );
    expect(decodeLifxPacket(bytes).message).toEqual({
      type: 'Unknown',
      typeNumber: 506,
      payload: Uint8Array.of(1, 2, 3),
    });
  });
});

describe('colours', () => {
  test('hue degrees map to the documented wire values', () => {
    const hue = (deg: number) => colorToHsbk({ hue: deg, saturation: 1, brightness: 1 }).hue;
    expect([hue(0), hue(60), hue(120), hue(240), hue(280), hue(360)]).toEqual([
      0, 10923, 21845, 43690, 50972, 0,
    ]);
    expect(colorToHsbk({ hue: 0, saturation: 0, brightness: 0.5 }, 6500)).toEqual({
      hue: 0,
      saturation: 0,
      brightness: 32768,
      kelvin: 6500,
    });
  });

  test('app colour → HSBK → app colour is within one wire step', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 359.99, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (hue, saturation, brightness) => {
          const back = hsbkToColor(colorToHsbk({ hue, saturation, brightness }));
          expect(Math.abs(back.hue - hue)).toBeLessThanOrEqual(360 / 65535);
          expect(Math.abs(back.saturation - saturation)).toBeLessThanOrEqual(1 / 65535);
          expect(Math.abs(back.brightness - brightness)).toBeLessThanOrEqual(1 / 65535);
        },
      ),
    );
  });

  test('skew ratio 0, 0.5 and 1 map to −32768, 0 and 32767', () => {
    expect([skewRatioToWire(0), skewRatioToWire(0.5), skewRatioToWire(1)]).toEqual([-32768, 0, 32767]);
    expect(skewRatioFromWire(-32768)).toBe(0);
    expect(skewRatioFromWire(32767)).toBe(1);
  });
});

describe('round trips', () => {
  const u16 = fc.integer({ min: 0, max: 65535 });
  const u32 = fc.integer({ min: 0, max: 0xffffffff });
  const hsbk: fc.Arbitrary<Hsbk> = fc.record({ hue: u16, saturation: u16, brightness: u16, kelvin: u16 });
  const mac = fc
    .uint8Array({ minLength: 6, maxLength: 6 })
    .map((b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(':'));
  const header: fc.Arbitrary<LifxHeader> = fc.record({
    tagged: fc.boolean(),
    source: u32,
    target: mac,
    resRequired: fc.boolean(),
    ackRequired: fc.boolean(),
    sequence: fc.integer({ min: 0, max: 255 }),
  });
  const label = fc.string({ maxLength: 10 }).filter((s) => !s.includes('\0'));
  const waveform = {
    transient: fc.boolean(),
    color: hsbk,
    periodMs: u32,
    cycles: fc.float({ noNaN: true, noDefaultInfinity: true }),
    skewRatio: fc.integer({ min: -32768, max: 32767 }),
    waveform: fc.integer({ min: 0, max: 4 }),
  };
  const message: fc.Arbitrary<LifxMessage> = fc.oneof(
    fc.constantFrom<LifxMessage>(
      { type: 'GetService' },
      { type: 'GetPower' },
      { type: 'GetLabel' },
      { type: 'GetVersion' },
      { type: 'Acknowledgement' },
      { type: 'LightGet' },
      { type: 'LightGetPower' },
    ),
    fc.record({
      type: fc.constant('StateService' as const),
      service: fc.integer({ min: 0, max: 255 }),
      port: u32,
    }),
    fc.record({
      type: fc.constantFrom('SetPower' as const, 'StatePower' as const, 'LightStatePower' as const),
      level: u16,
    }),
    fc.record({ type: fc.constant('LightSetPower' as const), level: u16, durationMs: u32 }),
    fc.record({ type: fc.constant('StateLabel' as const), label }),
    fc.record({ type: fc.constant('StateVersion' as const), vendor: u32, product: u32 }),
    fc.record({
      type: fc.constantFrom('EchoRequest' as const, 'EchoResponse' as const),
      payload: fc.uint8Array({ minLength: 64, maxLength: 64 }),
    }),
    fc.record({ type: fc.constant('LightSetColor' as const), color: hsbk, durationMs: u32 }),
    fc.record({ type: fc.constant('LightSetWaveform' as const), ...waveform }),
    fc.record({
      type: fc.constant('LightSetWaveformOptional' as const),
      ...waveform,
      setHue: fc.boolean(),
      setSaturation: fc.boolean(),
      setBrightness: fc.boolean(),
      setKelvin: fc.boolean(),
    }),
    fc.record({ type: fc.constant('LightState' as const), color: hsbk, power: u16, label }),
    fc.record({ type: fc.constant('StateUnhandled' as const), unhandledType: u16 }),
  );

  test('decode(encode(header, message)) gives both back', () => {
    fc.assert(
      fc.property(header, message, (h, m) => {
        const bytes = encodeLifxPacket(h, m);
        expect(decodeLifxPacket(bytes)).toEqual({ header: h, message: m });
      }),
    );
  });

  test('a label decodes to a prefix of itself, at most 32 bytes, cut between characters', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => !s.includes('\0')),
        (s) => {
          const back = decodeLabel(encodeLabel(s));
          expect(s.startsWith(back)).toBe(true);
        },
      ),
    );
    expect(decodeLabel(encodeLabel('Kitchen ☀'))).toBe('Kitchen ☀');
  });
});
