import { screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, SCREEN_WAIT } from '../../test/render-app';
import { INTEGRATIONS } from './landing-content';

test('the integrations grid shows only brands that work, none badged as coming', async () => {
  renderApp('/');
  const grid = await screen.findByRole('region', { name: 'Works with your lights' }, SCREEN_WAIT);
  const cards = within(grid).getAllByRole('listitem');
  expect(cards.map((card) => within(card).getByRole('heading', { level: 3 }).textContent)).toEqual([
    'LIFX',
    'Philips Hue',
    'Nanoleaf',
    'Govee',
    'Home Assistant',
    'WLED',
    'MQTT',
  ]);
  for (const integration of INTEGRATIONS) {
    expect(within(grid).getByRole('img', { name: `${integration.name} logo` })).toBeInTheDocument();
  }
  expect(within(grid).getByText('Panels, Shapes and Lines, through the desktop app.')).toBeInTheDocument();
  expect(
    within(grid).getByText("Wi-Fi lights and strips, on your network or through Govee's cloud."),
  ).toBeInTheDocument();
  expect(grid).not.toHaveTextContent(/coming/i);
});
