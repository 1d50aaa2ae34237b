import { paced } from '../../scripts/test-pace.mjs';
import { expect, signInAs, test, USERS } from '../fixtures';

/**
 * The two live sources end to end: the demo race arrives through the simulated F1 live-timing feed;
 * killing the feed switches the lights' source to OpenF1, and Race Control says so in one line;
 * turning it back on returns to it. (The server suite checks that no flag is missed meanwhile.)
 */
const FAN = USERS.lifetime;
/** Failover within 10 s plus the dashboard's 15 s refresh, with room for a loaded machine. */
const SWITCH_MS = 45_000;

test.afterEach(async ({ request }) => {
  await request.post('/sims/f1live/_control', { data: { mode: 'normal' } });
});

test('Race Control shows which feed drives the lights, through F1 live timing going down and back', async ({
  page,
  request,
}) => {
  test.setTimeout(paced(3 * SWITCH_MS));
  await signInAs(page, FAN);
  await page.goto('/#/dashboard');
  const raceControl = page.getByRole('region', { name: 'Race Control' });
  const source = raceControl.getByRole('status', { name: 'Live source' });
  await expect(source).toHaveText('Flags from F1 live timing · OpenF1 standing by', { timeout: SWITCH_MS });

  const down = await request.post('/sims/f1live/_control', { data: { mode: 'down' } });
  expect(down.ok()).toBe(true);
  await expect(source).toHaveText('Flags from OpenF1 · F1 live timing is down', { timeout: SWITCH_MS });
  const sources = await (await request.get('/api/live/sources')).json();
  expect(sources).toEqual([
    expect.objectContaining({ name: 'f1-live-timing', state: 'down' }),
    expect.objectContaining({ name: 'openf1', state: 'active' }),
  ]);

  await request.post('/sims/f1live/_control', { data: { mode: 'normal' } });
  await expect(source).toHaveText('Flags from F1 live timing · OpenF1 standing by', { timeout: SWITCH_MS });
});
