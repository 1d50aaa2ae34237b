import { expect, signInAs, test, USERS } from '../fixtures';

/** The Formula 1 Calendar on the dashboard (demo mode: the Jolpica simulator's season). */
test('the calendar lists the season with session times and highlights the next race', async ({ page }) => {
  await signInAs(page, USERS.lifetime);
  await page.goto('/#/dashboard');
  const panel = page.getByRole('region', { name: 'Formula 1 Calendar' });
  const calendar = panel.getByRole('list', { name: /race calendar$/ });
  await expect(calendar).toBeVisible();
  const rounds = calendar.locator(':scope > li');
  expect(await rounds.count()).toBeGreaterThan(10);
  await expect(rounds.first()).toContainText('Round 1');
  await expect(rounds.first()).toContainText('Race');
  await expect(rounds.first().locator('time').first()).toHaveAttribute('datetime', /Z$/);
  const next = calendar.locator('[data-next-race]');
  await expect(next).toHaveCount(1);
  await expect(next).toContainText('Next race');
  // The list opens on the next race: its top edge shows within the scrolled list (at the top,
  // unless the season's last races leave too little to scroll).
  await expect
    .poll(() =>
      calendar.evaluate((list) => {
        const card = list.querySelector('[data-next-race]')?.getBoundingClientRect();
        const box = list.getBoundingClientRect();
        return card ? card.top >= box.top - 1 && card.top <= box.bottom - 48 : false;
      }),
    )
    .toBe(true);
  await expect(panel.getByText('Failed to load race schedule')).toHaveCount(0);
});
