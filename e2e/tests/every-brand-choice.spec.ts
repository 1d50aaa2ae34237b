import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import { paced } from '../../scripts/test-pace.mjs';
import { createSession, expect, seedSession, test, USERS } from '../fixtures';
import {
  connectCloudLights,
  goveeDevices,
  hueSimLights,
  LightControlPanel,
} from '../page-models/light-control';
import type { Session } from '../support/accounts';
import {
  endProcess,
  startLinkedCompanion,
  waitFor,
  type CompanionProcess,
} from '../support/companion-process';
import { freePort } from '../support/ports';

/**
 * A fan with every brand the product drives: LIFX, Hue and Govee through their clouds, and a linked
 * companion on the demo's LAN simulator with LIFX, Hue, Govee, Nanoleaf, Home Assistant and WLED.
 * One light of each brand is picked, then one light of each is hidden; each time the choice survives
 * a reload and shows the same in a second browser, the account keeps exactly it, and the companion
 * drives exactly the picked lights. (A limit of 8 providers once refused every such choice, silently.)
 */

const CLOUD_TABS = { lifx: 'LIFX', hue: 'Philips Hue', govee: 'Govee' } as const;
type Cloud = keyof typeof CLOUD_TABS;
const LAN = ['lifx_lan', 'hue_local', 'govee_lan', 'nanoleaf', 'home_assistant', 'wled'] as const;
type Lan = (typeof LAN)[number];

interface ReportedLight {
  provider: Lan;
  id: string;
  label: string;
}
interface Choice {
  /** Provider → ids, as the account must keep them. */
  lists: Record<string, string[]>;
  /** What the fan clicks: the cloud lights' labels by tab, the companion lights' labels. */
  cloud: Record<Cloud, string>;
  companion: ReportedLight[];
}
interface CompanionStatus {
  linked: boolean;
  lights: { provider: string; id: string; driven: boolean }[];
}

/** A label used by exactly one light of the list, so a click lands on that light alone. */
function uniquelyLabelled<T extends { label: string }>(lights: readonly T[]): T[] {
  return lights.filter((light) => lights.filter((other) => other.label === light.label).length === 1);
}

async function openBrowser(browser: Browser, session: Session): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await seedSession(page, session);
  return page;
}

async function openTab(lights: LightControlPanel, name: string): Promise<Locator> {
  await lights.panel.getByRole('tab', { name, exact: true }).click();
  return lights.panel.getByRole('tabpanel');
}

/** The row of a light in a tab's list (by its exact label), found through the list's search when it has one. */
async function lightRow(tab: Locator, label: string): Promise<Locator> {
  const search = tab.getByRole('searchbox');
  if (await search.isVisible()) await search.fill(label);
  return tab.getByRole('listitem').filter({ has: tab.page().getByText(label, { exact: true }) });
}

async function lightBox(tab: Locator, label: string): Promise<Locator> {
  return (await lightRow(tab, label)).getByRole('checkbox');
}

async function clearSearch(tab: Locator): Promise<void> {
  const search = tab.getByRole('searchbox');
  if (await search.isVisible()) await search.fill('');
}

/** Light Control shows `choice` ticked: one light per cloud tab, and the companion's picks among its lights. */
async function expectTicked(page: Page, choice: Choice, companionTotal: number): Promise<void> {
  await page.goto('/#/dashboard');
  const lights = new LightControlPanel(page);
  for (const [provider, name] of Object.entries(CLOUD_TABS) as [Cloud, string][]) {
    const tab = await openTab(lights, name);
    await expect(await lightBox(tab, choice.cloud[provider])).toBeChecked();
    await clearSearch(tab);
    await expect(tab.getByText(/^1 of \d+ selected$/)).toBeVisible();
  }
  const tab = await openTab(lights, 'Companion');
  for (const light of choice.companion) {
    await expect(await lightBox(tab, light.label)).toBeChecked();
  }
  await clearSearch(tab);
  await expect(tab.getByText(`${choice.companion.length} of ${companionTotal} selected`)).toBeVisible();
}

async function savedPreferences(page: Page, session: Session) {
  const response = await page.request.get('/api/me/preferences', {
    headers: { authorization: `Bearer ${session.token}` },
  });
  return ((await response.json()) as { preferences: { selectedLights: object; hiddenLights: object } })
    .preferences;
}

const sorted = (lists: Record<string, string[]>) =>
  Object.fromEntries(Object.entries(lists).map(([provider, ids]) => [provider, [...ids].sort()]));

test.describe('a choice of lights of every brand', () => {
  // CI's one retry (decision 008) runs it again in a new worker, after afterAll ended this one's.
  test.describe.configure({ mode: 'serial' });
  let companion: CompanionProcess | null = null;
  let companionDir = '';

  test.afterAll(async () => {
    await endProcess(companion?.process ?? null, 'SIGTERM');
    if (companionDir) rmSync(companionDir, { recursive: true, force: true });
  });

  test('picks and hides one light of each brand: kept after a reload, in a second browser, and driven by the companion exactly', async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    test.setTimeout(paced(240_000));
    await request.post('/sims/lifx/_control/reset');
    await request.post('/sims/hue/_control/reset');
    await request.post('/sims/govee/_control/reset');
    const session = await createSession(request, USERS.lifetime);
    const auth = { authorization: `Bearer ${session.token}` };
    await seedSession(page, session);

    // The companion on the demo's LAN simulator, linked to the account.
    companionDir = mkdtempSync(path.join(tmpdir(), 'flaglight-every-brand-'));
    const bridgePort = await freePort();
    companion = await startLinkedCompanion({
      server: baseURL!,
      bridgePort,
      dataDir: companionDir,
      name: 'E2E Every Brand',
      token: session.token,
    });
    const { context } = companion;
    const reported = await waitFor(
      'lights of all six LAN brands',
      async () => {
        const devices = (await (await request.get('/api/devices', { headers: auth })).json()) as {
          lights: ReportedLight[];
        }[];
        const lights = devices[0]?.lights ?? [];
        return (
          LAN.every((provider) => uniquelyLabelled(lights).some((l) => l.provider === provider)) && lights
        );
      },
      90_000,
      context,
    );
    const status = async () =>
      (await (await fetch(`http://127.0.0.1:${bridgePort}/api/status`)).json()) as CompanionStatus;

    // The cloud lights: the first one of each simulator is picked, the second one hidden later.
    await connectCloudLights(page, { all: true });
    const cloudLights = {
      lifx: (
        (await (await request.get('/sims/lifx/_control/bulbs')).json()) as {
          bulbs: { id: string; label: string }[];
        }
      ).bulbs,
      hue: (await hueSimLights(request)).map(({ id, label }) => ({ id, label })),
      govee: (await goveeDevices(request)).map(({ device, deviceName }) => ({
        id: device,
        label: deviceName,
      })),
    };
    const unique = {
      lifx: uniquelyLabelled(cloudLights.lifx),
      hue: uniquelyLabelled(cloudLights.hue),
      govee: uniquelyLabelled(cloudLights.govee),
    };
    const lanUnique = uniquelyLabelled(reported);
    const ofBrand = (provider: Lan) => lanUnique.filter((light) => light.provider === provider);
    const picked: Choice = {
      cloud: { lifx: unique.lifx[0]!.label, hue: unique.hue[0]!.label, govee: unique.govee[0]!.label },
      companion: LAN.map((provider) => ofBrand(provider)[0]!),
      lists: {},
    };
    picked.lists = {
      lifx: [unique.lifx[0]!.id],
      hue: [unique.hue[0]!.id],
      govee: [unique.govee[0]!.id],
      ...Object.fromEntries(picked.companion.map((light) => [light.provider, [light.id]])),
    };

    // Pick: one light in each cloud tab; in the Companion tab (every light ticked until a choice), none, then one of each brand.
    await page.goto('/#/dashboard');
    const lights = new LightControlPanel(page);
    for (const [provider, name] of Object.entries(CLOUD_TABS) as [Cloud, string][]) {
      const tab = await openTab(lights, name);
      await (await lightBox(tab, picked.cloud[provider])).check();
      await clearSearch(tab);
    }
    const tab = await openTab(lights, 'Companion');
    await expect(tab.getByText(`${reported.length} of ${reported.length} selected`)).toBeVisible();
    await tab.getByRole('button', { name: 'Deselect all' }).click();
    await expect(tab.getByText('No light is ticked', { exact: false })).toBeVisible();
    for (const light of picked.companion) {
      await (await lightBox(tab, light.label)).check();
    }
    await clearSearch(tab);
    // The on-screen light is this screen's own (decision 031): unticked here, it stays so after a reload.
    const screenBox = lights.panel.getByRole('checkbox', { name: 'Use this screen as a light' });
    await screenBox.uncheck();
    await expect(page.getByRole('alert').filter({ hasText: 'not saved' })).toHaveCount(0);

    // The account keeps exactly that, and the companion drives exactly those lights.
    await expect
      .poll(
        async () =>
          sorted((await savedPreferences(page, session)).selectedLights as Record<string, string[]>),
        {
          timeout: paced(10_000),
        },
      )
      .toEqual(sorted(picked.lists));
    const drivenKeys = (s: CompanionStatus) =>
      s.lights
        .filter((light) => light.driven)
        .map((light) => `${light.provider}:${light.id}`)
        .sort();
    const pickedKeys = picked.companion.map((light) => `${light.provider}:${light.id}`).sort();
    await expect.poll(async () => drivenKeys(await status()), { timeout: paced(15_000) }).toEqual(pickedKeys);

    // After a reload, and in a second browser (whose own screen is a light until it says otherwise).
    await page.reload();
    await expectTicked(page, picked, reported.length);
    await expect(screenBox).not.toBeChecked();
    const second = await openBrowser(browser, session);
    await connectCloudLights(second, { all: false });
    await expectTicked(second, picked, reported.length);
    await expect(
      new LightControlPanel(second).panel.getByRole('checkbox', { name: 'Use this screen as a light' }),
    ).toBeChecked();

    // Hide the second light of each brand (cloud tabs and the companion's).
    const hidden = {
      cloud: { lifx: unique.lifx[1]!, hue: unique.hue[1]!, govee: unique.govee[1]! },
      companion: LAN.map((provider) => ofBrand(provider)[1] ?? ofBrand(provider)[0]!),
    };
    // A brand with a single light hides its picked one: hiding unticks it.
    const stillPicked = picked.companion.filter((light) => !hidden.companion.includes(light));
    await page.goto('/#/dashboard');
    for (const [provider, name] of Object.entries(CLOUD_TABS) as [Cloud, string][]) {
      const cloudTab = await openTab(lights, name);
      const row = await lightRow(cloudTab, hidden.cloud[provider].label);
      await row.getByRole('button', { name: `Hide ${hidden.cloud[provider].label}`, exact: true }).click();
      await clearSearch(cloudTab);
    }
    const companionTab = await openTab(lights, 'Companion');
    for (const light of hidden.companion) {
      const row = await lightRow(companionTab, light.label);
      await row.getByRole('button', { name: `Hide ${light.label}`, exact: true }).click();
    }
    await clearSearch(companionTab);
    const hiddenLists = {
      lifx: [hidden.cloud.lifx.id],
      hue: [hidden.cloud.hue.id],
      govee: [hidden.cloud.govee.id],
      ...Object.fromEntries(hidden.companion.map((light) => [light.provider, [light.id]])),
    };
    await expect
      .poll(
        async () => sorted((await savedPreferences(page, session)).hiddenLights as Record<string, string[]>),
        {
          timeout: paced(10_000),
        },
      )
      .toEqual(sorted(hiddenLists));
    const afterHiding: Choice = { ...picked, companion: stillPicked };
    await expect
      .poll(async () => drivenKeys(await status()), { timeout: paced(15_000) })
      .toEqual(stillPicked.map((light) => `${light.provider}:${light.id}`).sort());
    for (const check of [page, second]) {
      await check.reload();
      await expectTicked(check, afterHiding, reported.length - hidden.companion.length);
      await expect(
        new LightControlPanel(check).panel.getByRole('button', {
          name: `Show hidden lights (${LAN.length})`,
        }),
      ).toBeVisible();
    }
    await second.context().close();
  });
});
