import { fireEvent, render, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { ProviderLogo } from './ProviderLogo';

test('a logo that fails falls back to the generic image, then to an icon', () => {
  render(<ProviderLogo src="/missing/lifx.svg" name="LIFX" />);
  const logo = screen.getByRole('img', { name: 'LIFX logo' });
  expect(logo).toHaveAttribute('src', '/missing/lifx.svg');
  fireEvent.error(logo);
  const fallback = screen.getByRole('img', { name: 'LIFX logo' });
  expect(fallback.tagName).toBe('IMG');
  expect(fallback.getAttribute('src')).not.toBe('/missing/lifx.svg');
  fireEvent.error(fallback);
  expect(screen.getByRole('img', { name: 'LIFX logo' }).tagName.toLowerCase()).toBe('svg');
});
