import type { LinkedDevice } from '@flaglight/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { companion, lanLights } from '../../../test/companions';
import { stubApi } from '../../../test/fetch-stub';
import { baseRoutes, FAN_EMAIL, renderWithLights } from '../../../test/lights';
import { buildUser, seedSession } from '../../../test/users';
import { COMPANION_TEXTS } from '../../companion/companion-texts';
import { readLocalSettings, updateLocalSettings } from '../../settings/local-settings';
import { describeDrivenLights, LightControlPanel } from '../panels/LightControlPanel';

const fan = buildUser({ email: FAN_EMAIL });

beforeEach(() => {
  seedSession(fan);
});
afterEach(() => {
  vi.restoreAllMocks();
  window.localStorage.clear();
});

async function openCompanionTab(devices: LinkedDevice[], routes: Parameters<typeof stubApi>[0] = {}) {
  const api = stubApi({ ...baseRoutes(fan), 'GET /api/devices': { body: devices }, ...routes });
  await renderWithLights(<LightControlPanel />);
  fireEvent.mouseDown(await screen.findByRole('tab', { name: COMPANION_TEXTS.tab }));
  return api;
}

describe('the Companion tab of Light Control', () => {
  test('without a linked companion it says how to get one: downloads and the link page', async () => {
    const api = await openCompanionTab([]);
    expect(await screen.findByText(COMPANION_TEXTS.noneLinked)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download for Windows' })).toHaveAttribute(
      'href',
      '/api/downloads/flaglight-setup',
    );
    expect(screen.getByRole('link', { name: 'Download for Linux' })).toHaveAttribute(
      'href',
      '/api/downloads/flaglight-linux',
    );
    expect(screen.getByText(/\/#\/link/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('link', { name: 'Open the link page' }));
    // Nothing asked the local bridge.
    expect(api.calls.map((c) => c.route)).not.toContain('GET /api/status');
  });

  test('lists the lights a companion reports, reachable or not; before any choice every light is ticked', async () => {
    await openCompanionTab([companion()]);
    const list = await screen.findByRole('list', { name: 'Companion lights' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(within(items[0]!).getByText('Reachable')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Unreachable')).toBeInTheDocument();
    expect(within(items[0]!).getByText('LIFX (LAN)')).toBeInTheDocument();
    expect(screen.getByText(COMPANION_TEXTS.everyLight)).toBeInTheDocument();
    for (const box of within(list).getAllByRole('checkbox')) expect(box).toBeChecked();
  });

  test('a Nanoleaf controller the companion reports is listed under its brand', async () => {
    const shapes = {
      provider: 'nanoleaf' as const,
      id: 's19240a1001',
      label: 'Shapes Living room',
      reachable: true,
    };
    await openCompanionTab([companion({ lights: [shapes] })]);
    const list = await screen.findByRole('list', { name: 'Companion lights' });
    const [item] = within(list).getAllByRole('listitem');
    expect(within(item!).getByText('Nanoleaf')).toBeInTheDocument();
    expect(within(item!).getByText('Shapes Living room')).toBeInTheDocument();
  });

  test('unticking writes the choice for every provider; unticking all is no light, and every light can come back', async () => {
    await openCompanionTab([companion({ lights: [...lanLights(2), ...lanLights(1, 'hue_local')] })]);
    await screen.findByRole('list', { name: 'Companion lights' });
    const none = { lifx_lan: [], hue_local: [], govee_lan: [], nanoleaf: [], home_assistant: [], wled: [] };
    fireEvent.click(screen.getByRole('checkbox', { name: /Lan bulb 1/ }));
    expect(readLocalSettings(FAN_EMAIL).companionSelectedLights).toEqual({
      ...none,
      lifx_lan: ['d073d5000001'],
      hue_local: ['uuid-1'],
    });
    expect(screen.getByText(COMPANION_TEXTS.someTicked)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Deselect all' }));
    expect(readLocalSettings(FAN_EMAIL).companionSelectedLights).toEqual(none);
    expect(screen.getByText(COMPANION_TEXTS.nothingTicked)).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Companion lights' });
    for (const box of within(list).getAllByRole('checkbox')) expect(box).not.toBeChecked();
    fireEvent.click(screen.getByRole('checkbox', { name: /Lan bulb 1/ }));
    expect(readLocalSettings(FAN_EMAIL).companionSelectedLights).toEqual({
      ...none,
      lifx_lan: ['d073d5000000'],
    });
    fireEvent.click(screen.getByRole('button', { name: COMPANION_TEXTS.driveEveryLight }));
    expect(readLocalSettings(FAN_EMAIL).companionSelectedLights).toEqual({});
    expect(screen.getByText(COMPANION_TEXTS.everyLight)).toBeInTheDocument();
  });

  test('search above 5 lights, 10 per page, and hiding work as on the other tabs', async () => {
    await openCompanionTab([companion({ lights: lanLights(12) })]);
    const list = await screen.findByRole('list', { name: 'Companion lights' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByRole('navigation', { name: 'Companion light pages' })).toBeInTheDocument();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search Companion lights' }), {
      target: { value: 'bulb 1' },
    });
    expect(
      within(screen.getByRole('list', { name: 'Companion lights' })).getAllByRole('listitem'),
    ).toHaveLength(4);
    fireEvent.click(screen.getByRole('button', { name: 'Hide Lan bulb 1' }));
    expect(readLocalSettings(FAN_EMAIL).companionHiddenLights).toEqual({
      lifx_lan: ['d073d5000000'],
      hue_local: [],
      govee_lan: [],
      nanoleaf: [],
      home_assistant: [],
      wled: [],
    });
  });

  test('several companions: their lights are grouped under their names', async () => {
    await openCompanionTab([
      companion(),
      companion({ id: 'dev-2', name: 'Office Mac', online: false, lights: lanLights(2, 'hue_local') }),
    ]);
    const office = await screen.findByRole('region', { name: 'Office Mac' });
    expect(within(office).getByRole('heading', { name: /Office Mac/ })).toHaveTextContent('Offline');
    expect(within(office).getByRole('list', { name: 'Office Mac lights' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Living-room PC lights' })).toBeInTheDocument();
  });

  test("a companion that reported no lights says so; Test lights plays green on the account's companions", async () => {
    const api = await openCompanionTab([companion({ lights: [] })], {
      'POST /api/devices/test': { body: { success: true, devices: 1 } },
    });
    expect(await screen.findByText(COMPANION_TEXTS.noLightsYet('Living-room PC'))).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Test lights' }));
    expect(await screen.findByText('Testing on your companion: green')).toBeInTheDocument();
    expect(api.calls.find((c) => c.route === 'POST /api/devices/test')?.body).toEqual({ state: 'green' });
  });

  test('while no companion reports a Govee light, a quiet note says how LAN Control brings them, with Govee help', async () => {
    await openCompanionTab([companion()]);
    await screen.findByRole('list', { name: 'Companion lights' });
    expect(screen.getByText(COMPANION_TEXTS.goveeLanNote, { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: COMPANION_TEXTS.goveeHelp })).toHaveAttribute(
      'href',
      '/help?q=govee',
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test('once a Govee light is reported the note is gone', async () => {
    const strip = { provider: 'govee_lan' as const, id: 'D4:AD:01', label: 'Govee H6159', reachable: true };
    await openCompanionTab([companion({ lights: [...lanLights(1), strip] })]);
    const list = await screen.findByRole('list', { name: 'Companion lights' });
    expect(within(list).getByText('Govee (LAN)')).toBeInTheDocument();
    expect(screen.queryByText(COMPANION_TEXTS.goveeLanNote, { exact: false })).not.toBeInTheDocument();
  });

  test('no Govee note without a linked companion', async () => {
    await openCompanionTab([]);
    expect(await screen.findByText(COMPANION_TEXTS.noneLinked)).toBeInTheDocument();
    expect(screen.queryByText(COMPANION_TEXTS.goveeLanNote, { exact: false })).not.toBeInTheDocument();
  });

  test('a stored selection shows checked', async () => {
    updateLocalSettings(FAN_EMAIL, {
      companionSelectedLights: { lifx_lan: ['d073d5000002'], hue_local: [] },
    });
    await openCompanionTab([companion()]);
    await waitFor(() => expect(screen.getByRole('checkbox', { name: /Lan bulb 3/ })).toBeChecked());
    expect(screen.getByText('1 of 3 selected')).toBeInTheDocument();
  });
});

describe('what Light Control says follows the flags', () => {
  test("with a companion online and no cloud light, it names the companion's lights, not the screen alone", async () => {
    await openCompanionTab([companion()]);
    // Two of the companion's three lights answer: it drives those.
    expect(
      await screen.findByText("Flags drive your companion's 2 lights and this screen."),
    ).toBeInTheDocument();
    expect(screen.queryByText(/flags show on this screen only/)).not.toBeInTheDocument();
  });

  test('an offline companion drives nothing now', async () => {
    await openCompanionTab([companion({ online: false })]);
    expect(
      await screen.findByText(
        'Pick the lights that show the flags. Until then, flags show on this screen only.',
      ),
    ).toBeInTheDocument();
  });

  test.each([
    [
      { cloud: 'Philips Hue', companion: 0, screen: true },
      'Flags drive your Philips Hue lights and this screen.',
    ],
    [
      { cloud: 'LIFX and Govee', companion: 20, screen: true },
      "Flags drive your LIFX and Govee lights, your companion's 20 lights and this screen.",
    ],
    [{ cloud: null, companion: 1, screen: false }, "Flags drive your companion's 1 light."],
    [
      { cloud: null, companion: 0, screen: false },
      'Pick the lights that show the flags, or tick this screen below.',
    ],
  ])('%j reads "%s"', (driven, text) => {
    expect(describeDrivenLights(driven)).toBe(text);
  });
});
