import {
  encodeLifxPacket,
  LIFX_POWER_ON,
  LIFX_SERVICE_UDP,
  type LifxHeader,
  type LifxMessage,
} from '@flaglight/core';
import type { LifxBulb } from './lifx-bulb-model.js';
import { currentColor, startWaveform } from './lifx-waveform.js';

/** LIFX's vendor id and a colour product (LIFX Color, products.json id 91). */
export const LIFX_VENDOR = 1;
export const LIFX_SIM_PRODUCT = 91;

export interface LifxAnswer {
  answer: LifxMessage | undefined;
  /** A Set is answered with its State only when the request asks for a response. */
  isSet: boolean;
}

/** Applies one message to a bulb as a protocol-v2 bulb does (§1.2, §3); null: no answer, no ack. */
export function answerLifxMessage(bulb: LifxBulb, message: LifxMessage, at: number): LifxAnswer | null {
  const lightState = (): LifxMessage => ({
    type: 'LightState',
    color: currentColor(bulb, at),
    power: bulb.power,
    label: bulb.label,
  });
  // LIFX: the State answering a Set is likely the state before the change.
  let answer: LifxMessage | undefined;
  let isSet = false;
  switch (message.type) {
    case 'GetService':
      answer = { type: 'StateService', service: LIFX_SERVICE_UDP, port: bulb.port };
      break;
    case 'GetPower':
      answer = { type: 'StatePower', level: bulb.power };
      break;
    case 'LightGetPower':
      answer = { type: 'LightStatePower', level: bulb.power };
      break;
    case 'SetPower':
    case 'LightSetPower':
      isSet = true;
      answer =
        message.type === 'SetPower'
          ? { type: 'StatePower', level: bulb.power }
          : { type: 'LightStatePower', level: bulb.power };
      bulb.power = message.level === 0 ? 0 : LIFX_POWER_ON;
      break;
    case 'GetLabel':
      answer = { type: 'StateLabel', label: bulb.label };
      break;
    case 'GetVersion':
      answer = { type: 'StateVersion', vendor: LIFX_VENDOR, product: LIFX_SIM_PRODUCT };
      break;
    case 'EchoRequest':
      answer = { type: 'EchoResponse', payload: message.payload };
      break;
    case 'LightGet':
      answer = lightState();
      break;
    case 'LightSetColor':
      isSet = true;
      answer = lightState();
      // A later SetColor stops a running waveform.
      bulb.waveform = null;
      bulb.color = { ...message.color };
      break;
    case 'LightSetWaveform':
    case 'LightSetWaveformOptional':
      isSet = true;
      answer = lightState();
      startWaveform(bulb, at, message);
      break;
    case 'Unknown':
      answer = { type: 'StateUnhandled', unhandledType: message.typeNumber };
      break;
    default:
      // States and acks sent to a bulb: nothing to do.
      return null;
  }
  return { answer, isSet };
}

/** A reply from `bulb` to `request`: its source and sequence echoed, nothing more asked of the client. */
export function encodeLifxReply(bulb: LifxBulb, request: LifxHeader, message: LifxMessage): Uint8Array {
  const header: LifxHeader = {
    tagged: false,
    source: request.source,
    target: bulb.id,
    resRequired: false,
    ackRequired: false,
    sequence: request.sequence,
  };
  return encodeLifxPacket(header, message);
}
