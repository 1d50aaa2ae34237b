import type { PreferencesDocument } from '@flaglight/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { buildPreferencesDocument } from '../../test/preferences';
import { createTestQueryClient } from '../../test/render-app';
import { DevicesSection } from './DevicesSection';
import { outOfRangeText, ROOM_DELAY_TEXTS as T } from './room-delay';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const device = (id: string, name: string) => ({
  id,
  name,
  platform: 'linux-x64',
  version: '1.0.0',
  linkedAt: '2026-11-25T14:00:00.000Z',
  lastSeenAt: '2026-11-25T14:05:00.000Z',
  online: true,
});
const BEDROOM = device('dev-bed', 'Bedroom PC');
const LOUNGE = device('dev-lounge', 'Lounge PC');

const doc = (version: number, over: Partial<PreferencesDocument['preferences']> = {}) =>
  buildPreferencesDocument(version, { selectedLights: { lifx: ['l1'] }, ...over });

type Routes = Parameters<typeof stubApi>[0];

function renderSection(routes: Routes) {
  const api = stubApi({ 'GET /api/devices': { body: [BEDROOM, LOUNGE] }, ...routes });
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <DevicesSection />
    </QueryClientProvider>,
  );
  return api;
}

async function room(name: string) {
  const item = await screen.findByRole('listitem', { name });
  return within(item).findByRole('form', { name: T.label });
}

/** A server whose first write is stale (409 with `current`), and whose next writes are taken. */
function conflictOnce(current: PreferencesDocument) {
  let attempt = 0;
  return (body: unknown) => {
    attempt += 1;
    if (attempt === 1)
      return { status: 409, body: { error: 'Changed elsewhere', code: 'conflict', current } };
    return { body: { ...(body as object), updatedAt: null } };
  };
}

const puts = (api: ReturnType<typeof stubApi>) =>
  api.calls.filter((call) => call.route === 'PUT /api/me/preferences').map((call) => call.body);

test('each companion shows its own extra delay and what its room waits in total', async () => {
  renderSection({
    'GET /api/me/preferences': { body: doc(4, { delayOffsetsMs: { 'dev-bed': 2500, gone: 9000 } }) },
  });
  const bedroom = await room('Bedroom PC');
  expect(within(bedroom).getByTestId('room-offset-value')).toHaveTextContent('+2.5 s');
  expect(within(bedroom).getByText('This room: 7.5 s = 5 s broadcast delay + 2.5 s')).toBeVisible();
  const lounge = await room('Lounge PC');
  expect(within(lounge).getByTestId('room-offset-value')).toHaveTextContent('0 s');
  expect(within(lounge).getByText('This room: 5 s = 5 s broadcast delay + 0 s')).toBeVisible();
  // An unlinked companion's offset has no row.
  expect(screen.queryByText(/\+9 s/)).not.toBeInTheDocument();
  expect(screen.getAllByRole('form', { name: T.label })).toHaveLength(2);
});

test('the slider runs from −5 s to +10 s in steps of 0.1 s, by keyboard and with the − and + buttons', async () => {
  renderSection({ 'GET /api/me/preferences': { body: doc(1) } });
  const bedroom = await room('Bedroom PC');
  const slider = within(bedroom).getByRole('slider', { name: T.label });
  expect(slider).toHaveAttribute('aria-valuemin', '-5');
  expect(slider).toHaveAttribute('aria-valuemax', '10');

  fireEvent.keyDown(slider, { key: 'ArrowRight' });
  expect(slider).toHaveAttribute('aria-valuetext', '+0.1 s');
  fireEvent.keyDown(slider, { key: 'End' });
  expect(slider).toHaveAttribute('aria-valuetext', '+10 s');
  expect(within(bedroom).getByRole('button', { name: T.increase })).toBeDisabled();
  await userEvent.click(within(bedroom).getByRole('button', { name: T.decrease }));
  expect(within(bedroom).getByTestId('room-offset-value')).toHaveTextContent('+9.9 s');
  fireEvent.keyDown(slider, { key: 'Home' });
  expect(within(bedroom).getByTestId('room-offset-value')).toHaveTextContent('−5 s');
  expect(within(bedroom).getByRole('button', { name: T.decrease })).toBeDisabled();
  expect(within(bedroom).getByText('This room: 0 s = 5 s broadcast delay − 5 s')).toBeVisible();
  await userEvent.click(within(bedroom).getByRole('button', { name: T.increase }));
  expect(within(bedroom).getByText('This room: 0.1 s = 5 s broadcast delay − 4.9 s')).toBeVisible();
  // Nothing is sent until Save.
  expect(within(bedroom).getByText('(not saved yet)')).toBeVisible();
});

test('typed seconds are refused when not a number or out of range, and rounded to 0.1 s otherwise', async () => {
  const api = renderSection({ 'GET /api/me/preferences': { body: doc(1) } });
  const bedroom = await room('Bedroom PC');
  const input = within(bedroom).getByRole('textbox', { name: T.inputLabel });
  const save = within(bedroom).getByRole('button', { name: T.save });

  for (const [typed, error] of [
    ['abc', T.notANumber],
    ['NaN', T.notANumber],
    ['10.1', outOfRangeText()],
    ['-5.1', outOfRangeText()],
  ] as const) {
    await userEvent.clear(input);
    await userEvent.type(input, typed);
    await userEvent.click(save);
    expect(within(bedroom).getByRole('alert')).toHaveTextContent(error);
    expect(input).toHaveAttribute('aria-invalid', 'true');
  }
  expect(puts(api)).toEqual([]);

  await userEvent.clear(input);
  await userEvent.type(input, '2.46');
  await userEvent.tab();
  expect(within(bedroom).getByTestId('room-offset-value')).toHaveTextContent('+2.5 s');
  expect(input).toHaveValue('2.5');
});

test('Save sends only this companion’s offset, keeping every other preference and offset', async () => {
  const base = doc(7, { delayOffsetsMs: { 'dev-lounge': -1000 } });
  const api = renderSection({
    'GET /api/me/preferences': { body: base },
    'PUT /api/me/preferences': (body) => ({
      body: { ...(body as { preferences: unknown }), version: 8, updatedAt: null },
    }),
  });
  const bedroom = await room('Bedroom PC');
  const input = within(bedroom).getByRole('textbox', { name: T.inputLabel });
  await userEvent.clear(input);
  await userEvent.type(input, '+2.5{Enter}');

  expect(await within(bedroom).findByRole('status')).toHaveTextContent('Saved: +2.5 s for Bedroom PC.');
  expect(puts(api)).toEqual([
    {
      version: 7,
      preferences: { ...base.preferences, delayOffsetsMs: { 'dev-lounge': -1000, 'dev-bed': 2500 } },
    },
  ]);
  expect(within(bedroom).queryByText('(not saved yet)')).not.toBeInTheDocument();
  expect(within(bedroom).getByRole('button', { name: T.save })).toBeDisabled();
});

test('a stale version is merged with the current document and sent again', async () => {
  const current = doc(9, { autoConnect: false, delayOffsetsMs: { 'dev-lounge': 3000 } });
  const api = renderSection({
    'GET /api/me/preferences': { body: doc(7) },
    'PUT /api/me/preferences': conflictOnce(current),
  });
  const bedroom = await room('Bedroom PC');
  fireEvent.keyDown(within(bedroom).getByRole('slider'), { key: 'PageUp' });
  await userEvent.click(within(bedroom).getByRole('button', { name: T.save }));
  expect(await within(bedroom).findByRole('status')).toHaveTextContent('Saved: +1 s');
  expect(puts(api)[1]).toEqual({
    version: 9,
    preferences: { ...current.preferences, delayOffsetsMs: { 'dev-lounge': 3000, 'dev-bed': 1000 } },
  });
  // The other room's row now shows the offset that arrived with the conflict.
  expect(within(await room('Lounge PC')).getByTestId('room-offset-value')).toHaveTextContent('+3 s');
});

test('a failed save says so and keeps the value set, ready to try again', async () => {
  let fail = true;
  const api = renderSection({
    'GET /api/me/preferences': { body: doc(2) },
    'PUT /api/me/preferences': (body) =>
      fail
        ? { status: 500, body: { error: 'Internal server error', code: 'internal_error' } }
        : { body: { ...(body as object), updatedAt: null } },
  });
  const bedroom = await room('Bedroom PC');
  const input = within(bedroom).getByRole('textbox', { name: T.inputLabel });
  await userEvent.clear(input);
  await userEvent.type(input, '-1.5{Enter}');
  expect(await within(bedroom).findByRole('alert')).toHaveTextContent(T.saveFailed);
  expect(input).toHaveValue('-1.5');
  expect(within(bedroom).getByTestId('room-offset-value')).toHaveTextContent('−1.5 s');
  expect(within(bedroom).getByText('This room: 3.5 s = 5 s broadcast delay − 1.5 s')).toBeVisible();

  fail = false;
  await userEvent.click(within(bedroom).getByRole('button', { name: T.save }));
  expect(await within(bedroom).findByRole('status')).toHaveTextContent('Saved: −1.5 s');
  expect(puts(api).map((body) => (body as PreferencesDocument).preferences.delayOffsetsMs)).toEqual([
    { 'dev-bed': -1500 },
    { 'dev-bed': -1500 },
  ]);
});

test('calibrating a room saves what its TV measures beyond the broadcast delay', async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-08T04:00:00Z') });
  const api = renderSection({
    'GET /api/me/preferences': { body: doc(3, { delay: { enabled: true, seconds: 20 } }) },
    'PUT /api/me/preferences': (body) => ({ body: { ...(body as object), updatedAt: null } }),
  });
  const bedroom = await room('Bedroom PC');
  await userEvent.click(within(bedroom).getByRole('button', { name: T.calibrate }));
  const tool = within(bedroom).getByRole('group', { name: T.calibrateTitle });
  expect(tool).toHaveTextContent("Press Mark when this room's TV shows the same moment.");
  await userEvent.click(within(tool).getByRole('button', { name: 'Start' }));
  vi.setSystemTime(new Date('2026-03-08T04:00:23.460Z'));
  await userEvent.click(within(tool).getByRole('button', { name: 'Mark' }));

  expect(await within(bedroom).findByRole('status')).toHaveTextContent(
    "Measured 23.5 s on this room's TV: its extra delay is now +3.5 s.",
  );
  expect(within(bedroom).getByText('This room: 23.5 s = 20 s broadcast delay + 3.5 s')).toBeVisible();
  expect(puts(api).map((body) => (body as PreferencesDocument).preferences.delayOffsetsMs)).toEqual([
    { 'dev-bed': 3500 },
  ]);
});

test('a calibration takes off the broadcast delay the account has when it saves, not the one this page last read', async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-08T04:00:00Z') });
  // This page read 10 s; another browser has lowered it to 5 s since.
  const current = doc(4, { delay: { enabled: true, seconds: 5 } });
  const api = renderSection({
    'GET /api/me/preferences': { body: doc(3, { delay: { enabled: true, seconds: 10 } }) },
    'PUT /api/me/preferences': conflictOnce(current),
  });
  const bedroom = await room('Bedroom PC');
  await userEvent.click(within(bedroom).getByRole('button', { name: T.calibrate }));
  await userEvent.click(within(bedroom).getByRole('button', { name: 'Start' }));
  vi.setSystemTime(new Date('2026-03-08T04:00:12.100Z'));
  await userEvent.click(within(bedroom).getByRole('button', { name: 'Mark' }));
  expect(await within(bedroom).findByRole('status')).toHaveTextContent(
    "Measured 12.1 s on this room's TV: its extra delay is now +7.1 s.",
  );
  expect(puts(api).map((body) => (body as PreferencesDocument).preferences.delayOffsetsMs)).toEqual([
    { 'dev-bed': 2100 },
    { 'dev-bed': 7100 },
  ]);
  expect(within(bedroom).getByText('This room: 12.1 s = 5 s broadcast delay + 7.1 s')).toBeVisible();
});

test('a calibration beyond the control’s range is not saved and says what to change instead', async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-08T04:00:00Z') });
  const api = renderSection({ 'GET /api/me/preferences': { body: doc(3) } });
  const bedroom = await room('Bedroom PC');
  await userEvent.click(within(bedroom).getByRole('button', { name: T.calibrate }));
  await userEvent.click(within(bedroom).getByRole('button', { name: 'Start' }));
  vi.setSystemTime(new Date('2026-03-08T04:00:30Z'));
  await userEvent.click(within(bedroom).getByRole('button', { name: 'Mark' }));
  expect(within(bedroom).getByRole('alert')).toHaveTextContent(/needs \+25 s .*Change the broadcast delay/);
  expect(puts(api)).toEqual([]);
});

test('an offset stored outside the control’s range is shown as it is, not clamped', async () => {
  renderSection({ 'GET /api/me/preferences': { body: doc(1, { delayOffsetsMs: { 'dev-bed': 30_000 } }) } });
  const bedroom = await room('Bedroom PC');
  expect(within(bedroom).getByTestId('room-offset-value')).toHaveTextContent('+30 s');
  expect(within(bedroom).getByText(/Set elsewhere to \+30 s/)).toBeVisible();
  expect(within(bedroom).getByRole('button', { name: T.save })).toBeDisabled();
});

test('with the broadcast delay off, a room waits only its own extra delay', async () => {
  renderSection({
    'GET /api/me/preferences': {
      body: doc(1, { delay: { enabled: false, seconds: 5 }, delayOffsetsMs: { 'dev-bed': 1200 } }),
    },
  });
  const bedroom = await room('Bedroom PC');
  expect(within(bedroom).getByText('This room: 1.2 s = 0 s broadcast delay (off) + 1.2 s')).toBeVisible();
});

test('when the preferences cannot be read, the rooms say so once and can try again', async () => {
  let fail = true;
  renderSection({
    'GET /api/me/preferences': () =>
      fail
        ? { status: 500, body: { error: 'Internal server error', code: 'internal_error' } }
        : { body: doc(1) },
  });
  expect(await screen.findByRole('alert')).toHaveTextContent(T.loadFailed);
  expect(screen.queryByRole('form', { name: T.label })).not.toBeInTheDocument();
  fail = false;
  await userEvent.click(screen.getByRole('button', { name: T.retry }));
  await waitFor(() => expect(screen.getAllByRole('form', { name: T.label })).toHaveLength(2));
});
