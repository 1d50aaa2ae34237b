import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { DEMO_CONFIG, stubApi } from '../../test/fetch-stub';
import { useAppConfig } from './app-config';

afterEach(() => vi.restoreAllMocks());

function Mode({ enabled = true }: { enabled?: boolean }) {
  const config = useAppConfig(enabled);
  if (config.isError) return <p>failed</p>;
  return <p>{config.isPending ? 'loading' : config.data.mode}</p>;
}

const configCalls = (api: ReturnType<typeof stubApi>) =>
  api.calls.filter((call) => call.route === 'GET /api/config').length;

test('every component shares one request for the configuration', async () => {
  const api = stubApi({ 'GET /api/config': { body: DEMO_CONFIG } });
  render(
    <>
      <Mode />
      <Mode />
    </>,
  );
  expect(await screen.findAllByText('demo')).toHaveLength(2);
  render(<Mode />);
  expect(screen.getAllByText('demo')).toHaveLength(3);
  expect(configCalls(api)).toBe(1);
});

test('nothing is asked while disabled', async () => {
  const api = stubApi({ 'GET /api/config': { body: DEMO_CONFIG } });
  render(<Mode enabled={false} />);
  expect(screen.getByText('loading')).toBeInTheDocument();
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(configCalls(api)).toBe(0);
});

test('a failure shows, and the next component to ask tries again', async () => {
  let fail = true;
  const api = stubApi({
    'GET /api/config': () => (fail ? { status: 500, body: {} } : { body: DEMO_CONFIG }),
  });
  render(<Mode />);
  expect(await screen.findByText('failed')).toBeInTheDocument();
  fail = false;
  render(<Mode />);
  await waitFor(() => expect(screen.getAllByText('demo')).toHaveLength(2));
  expect(configCalls(api)).toBe(2);
});
