// The local bridge's state changes (POST), one small function per path: each checks its input,
// calls its action and answers.
import type http from 'node:http';
import { send } from './bridge-http.js';
import type { BridgeActions } from './bridge-types.js';

export interface ActionRequest {
  actions: BridgeActions;
  response: http.ServerResponse;
  /** Sent by one of the web app's pages. */
  fromApp: boolean;
  /**
   * The Home Assistant token is saved and forgotten by one rule: on the status page (its own origin)
   * or by a program on this computer (no Origin). A web page, the app's included, does neither.
   */
  mayChangeHomeAssistantToken: boolean;
  /** The status page itself or a program on this computer (no Origin): updates are changed there only. */
  fromPageOrProgram: boolean;
}

type ActionRoute = (input: Record<string, unknown>, request: ActionRequest) => Promise<void> | void;

function test(input: Record<string, unknown>, { actions, response }: ActionRequest): void {
  if (typeof input.state !== 'string' || input.state.length > 40) {
    send(response, 400, { error: 'state must be a flag name such as "yellow".', code: 'invalid_input' });
    return;
  }
  if (!actions.test(input.state)) {
    if (actions.status().paused === true)
      send(response, 409, { error: 'The lights are paused: Resume lights to test them.', code: 'paused' });
    else send(response, 400, { error: `Unknown flag "${input.state}".`, code: 'invalid_input' });
    return;
  }
  send(response, 200, { success: true });
}

function pause(input: Record<string, unknown>, { actions, response }: ActionRequest): void {
  if (typeof input.paused !== 'boolean') {
    send(response, 400, { error: 'paused must be true or false.', code: 'invalid_input' });
    return;
  }
  actions.setPaused(input.paused);
  send(response, 200, { success: true, paused: input.paused });
}

async function rescan(_input: Record<string, unknown>, { actions, response }: ActionRequest): Promise<void> {
  await actions.rescan();
  send(response, 200, { success: true });
}

async function pairHue(input: Record<string, unknown>, { actions, response }: ActionRequest): Promise<void> {
  const target = input.url;
  if (target !== undefined && (typeof target !== 'string' || !/^https:\/\/[^\s/]+$/i.test(target))) {
    send(response, 400, { error: 'url must look like https://192.168.1.20', code: 'invalid_input' });
    return;
  }
  const result = await actions.pairHue(target);
  if (result.ok) send(response, 200, { success: true, name: result.name });
  else send(response, 409, { error: result.error, code: 'conflict' });
}

async function pairNanoleaf(
  input: Record<string, unknown>,
  { actions, response }: ActionRequest,
): Promise<void> {
  const target = input.address;
  if (
    target !== undefined &&
    (typeof target !== 'string' || !/^(http:\/\/)?(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?\/?$/i.test(target))
  ) {
    send(response, 400, {
      error: 'address must look like 192.168.1.30 or 192.168.1.30:16021',
      code: 'invalid_input',
    });
    return;
  }
  const result = await actions.pairNanoleaf(target);
  if (result.ok) send(response, 200, { success: true, name: result.name });
  else send(response, 409, { error: result.error, code: 'conflict' });
}

async function forgetNanoleaf(
  input: Record<string, unknown>,
  { actions, response }: ActionRequest,
): Promise<void> {
  const id = input.id;
  if (typeof id !== 'string' || id === '' || id.length > 100) {
    send(response, 400, { error: 'id must be the id of a paired controller.', code: 'invalid_input' });
    return;
  }
  const forgotten = await actions.forgetNanoleaf(id);
  if (forgotten) send(response, 200, { success: true, name: forgotten.name });
  else
    send(response, 404, {
      error: 'No Nanoleaf controller with this id is paired with this companion.',
      code: 'not_found',
    });
}

async function saveHomeAssistantToken(
  input: Record<string, unknown>,
  { actions, response, mayChangeHomeAssistantToken }: ActionRequest,
): Promise<void> {
  if (!mayChangeHomeAssistantToken || !actions.saveHomeAssistantToken) {
    send(response, 403, { error: "Enter the token on the companion's status page.", code: 'forbidden' });
    return;
  }
  if (typeof input.token !== 'string' || input.token.length > 4_096) {
    send(response, 400, { error: 'token must be the long-lived access token.', code: 'invalid_input' });
    return;
  }
  const saved = await actions.saveHomeAssistantToken(input.token);
  if (saved.ok) send(response, 200, { success: true });
  else send(response, 409, { error: saved.error, code: 'conflict' });
}

async function forgetHomeAssistantToken(
  _input: Record<string, unknown>,
  { actions, response, mayChangeHomeAssistantToken }: ActionRequest,
): Promise<void> {
  if (!mayChangeHomeAssistantToken) {
    send(response, 403, { error: "Forget the token on the companion's status page.", code: 'forbidden' });
    return;
  }
  await actions.forgetHomeAssistantToken?.();
  send(response, 200, { success: true });
}

async function unlink(
  _input: Record<string, unknown>,
  { actions, response, fromApp }: ActionRequest,
): Promise<void> {
  // Only this computer's own programs and the status page: a web page never unlinks.
  if (fromApp) {
    send(response, 403, { error: 'Unlink the companion in Settings → Devices.', code: 'forbidden' });
    return;
  }
  await actions.unlink();
  send(response, 200, { success: true });
}

/** Updates are the fan's own choice on the status page (or a local program); a web page, the app's included, cannot ask. */
function updatesAllowed({ actions, response, fromPageOrProgram }: ActionRequest) {
  if (!fromPageOrProgram || !actions.updates) {
    send(response, 403, { error: "Manage updates on the companion's status page.", code: 'forbidden' });
    return null;
  }
  return actions.updates;
}

async function checkUpdates(_input: Record<string, unknown>, request: ActionRequest): Promise<void> {
  const updates = updatesAllowed(request);
  if (updates) send(request.response, 200, { success: true, updates: await updates.check() });
}

function setAutoUpdate(input: Record<string, unknown>, request: ActionRequest): void {
  if (typeof input.auto !== 'boolean') {
    send(request.response, 400, { error: 'auto must be true or false.', code: 'invalid_input' });
    return;
  }
  const updates = updatesAllowed(request);
  if (!updates) return;
  updates.setAuto(input.auto);
  send(request.response, 200, { success: true, auto: input.auto });
}

function installUpdate(_input: Record<string, unknown>, request: ActionRequest): void {
  const updates = updatesAllowed(request);
  if (!updates) return;
  if (updates.installWhenQuiet()) send(request.response, 200, { success: true });
  else
    send(request.response, 409, {
      error: 'No checked update is waiting: Check now first.',
      code: 'conflict',
    });
}

function setUpdateChannel(input: Record<string, unknown>, request: ActionRequest): void {
  if (input.channel !== 'stable' && input.channel !== 'beta') {
    send(request.response, 400, { error: 'channel must be "stable" or "beta".', code: 'invalid_input' });
    return;
  }
  const updates = updatesAllowed(request);
  if (!updates?.setChannel) return;
  updates.setChannel(input.channel);
  send(request.response, 200, { success: true, channel: input.channel });
}

async function listUpdateVersions(_input: Record<string, unknown>, request: ActionRequest): Promise<void> {
  const updates = updatesAllowed(request);
  if (updates?.listVersions)
    send(request.response, 200, { success: true, updates: await updates.listVersions() });
}

/** A version picked by hand; an older one answers 409 with `confirm` until asked with `confirmOlder: true`. */
async function installUpdateVersion(input: Record<string, unknown>, request: ActionRequest): Promise<void> {
  if (
    typeof input.version !== 'string' ||
    input.version.length > 40 ||
    ((input.confirmOlder ?? false) !== false && input.confirmOlder !== true)
  ) {
    send(request.response, 400, {
      error: 'version must be a version such as "1.2.3"; confirmOlder true or false.',
      code: 'invalid_input',
    });
    return;
  }
  const updates = updatesAllowed(request);
  if (!updates?.installVersion) return;
  const result = await updates.installVersion(input.version, input.confirmOlder === true);
  if (result.ok) send(request.response, 200, { success: true, message: result.message });
  else
    send(request.response, 409, {
      error: result.message,
      code: 'conflict',
      ...(result.confirm ? { confirm: result.confirm } : {}),
    });
}

/** Each POST path and what answers it; any other path is not found. */
export const ACTION_ROUTES: ReadonlyMap<string, ActionRoute> = new Map<string, ActionRoute>([
  ['/api/test', test],
  ['/api/pause', pause],
  ['/api/lights/rescan', rescan],
  ['/api/hue/pair', pairHue],
  ['/api/nanoleaf/pair', pairNanoleaf],
  ['/api/nanoleaf/forget', forgetNanoleaf],
  ['/api/home-assistant/token', saveHomeAssistantToken],
  ['/api/home-assistant/forget', forgetHomeAssistantToken],
  ['/api/unlink', unlink],
  ['/api/updates/check', checkUpdates],
  ['/api/updates/auto', setAutoUpdate],
  ['/api/updates/install', installUpdate],
  ['/api/updates/channel', setUpdateChannel],
  ['/api/updates/versions', listUpdateVersions],
  ['/api/updates/install-version', installUpdateVersion],
]);
