import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, test } from 'vitest';
import { countFaqItems, FAQ_ITEMS } from './faq-content';
import { HELP_CATEGORIES, searchHelp } from './help-content';
import { HelpPage } from './HelpPage';

function renderHelp() {
  return render(
    <MemoryRouter>
      <HelpPage />
    </MemoryRouter>,
  );
}

describe('help centre search (SPEC §2 Help version B)', () => {
  test('has the six categories', () => {
    expect(HELP_CATEGORIES.map((c) => c.title)).toEqual([
      'Getting Started',
      'Smart Light Setup',
      'Broadcast Delay',
      'Live Sessions',
      'Troubleshooting',
      'Account & Pricing',
    ]);
  });

  test('matches answer text as well as questions, ignoring case', () => {
    const results = searchHelp('PERSONAL ACCESS TOKEN');
    expect(results.flatMap((c) => c.articles.map((a) => a.id))).toEqual(['lifx-token']);
  });

  test('typing filters the articles and says how many match', async () => {
    renderHelp();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search help' }), {
      target: { value: 'money-back' },
    });
    expect(await screen.findByText('1 result for “money-back”')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Account & Pricing' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 2, name: 'Getting Started' })).not.toBeInTheDocument();
  });

  test('Nanoleaf and Govee setup and troubleshooting are found by what people search for', () => {
    const ids = (query: string) => searchHelp(query).flatMap((c) => c.articles.map((a) => a.id));
    expect(ids('nanoleaf')).toEqual(expect.arrayContaining(['nanoleaf-setup', 'nanoleaf-trouble']));
    expect(ids('power button 5–7 seconds')).toEqual(['nanoleaf-setup', 'nanoleaf-trouble']);
    expect(ids('essentials')).toEqual(['nanoleaf-setup']);
    expect(ids('LAN Control govee')).toEqual(expect.arrayContaining(['govee-lan', 'govee-trouble']));
    expect(ids('port 4002')).toEqual(['govee-trouble']);
    expect(ids('apply for api key')).toEqual(['govee-cloud']);
    expect(ids('coming in 2025')).toEqual([]);
  });

  test('a link with ?q= opens the help centre already searched', async () => {
    render(
      <MemoryRouter initialEntries={['/help?q=govee']}>
        <HelpPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('searchbox', { name: 'Search help' })).toHaveValue('govee');
    expect(await screen.findByText(/results for “govee”/)).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { level: 3, name: 'How do I connect Govee lights on my network?' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { level: 3, name: 'The companion finds no Govee lights' }),
    ).toBeInTheDocument();
  });

  test('no match offers the support e-mail', async () => {
    renderHelp();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search help' }), { target: { value: 'zzzz' } });
    expect(await screen.findByText('No articles match your search.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'e-mail support@flaglight.app' })).toHaveAttribute(
      'href',
      'mailto:support@flaglight.app',
    );
  });

  test('links to settings, the dashboard, support and the Windows download', () => {
    renderHelp();
    expect(screen.getAllByRole('link', { name: 'Open Settings' })[0]).toHaveAttribute('href', '/settings');
    expect(screen.getAllByRole('link', { name: 'Open the dashboard' })[0]).toHaveAttribute(
      'href',
      '/dashboard',
    );
    expect(screen.getAllByRole('link', { name: 'E-mail support' })[0]).toHaveAttribute(
      'href',
      'mailto:support@flaglight.app',
    );
    expect(screen.getAllByRole('link', { name: 'Download for Windows' })[0]).toHaveAttribute(
      'href',
      '/api/downloads/flaglight-setup',
    );
  });
});

describe('FAQ (SPEC §2 Help version A)', () => {
  test('19 questions: 4 general, 7 technical, 4 billing, 4 compatibility', () => {
    expect(FAQ_ITEMS).toHaveLength(19);
    expect(countFaqItems()).toEqual({ all: 19, general: 4, technical: 7, billing: 4, compatibility: 4 });
  });

  test('tabs show their counts and filter the questions', async () => {
    const user = userEvent.setup();
    renderHelp();
    const tabs = screen.getByRole('tablist', { name: 'Question categories' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['All Questions19', 'General4', 'Technical7', 'Billing4', 'Compatibility4']);
    expect(within(screen.getByRole('tabpanel')).getAllByRole('listitem')).toHaveLength(19);
    await user.click(screen.getByRole('tab', { name: /Technical/ }));
    expect(within(screen.getByRole('tabpanel')).getAllByRole('listitem')).toHaveLength(7);
  });

  test('questions open and close on their own; several can be open', async () => {
    const user = userEvent.setup();
    renderHelp();
    const cost = screen.getByRole('button', { name: 'How much does Flaglight cost?' });
    const hue = screen.getByRole('button', { name: 'Do I need a Hue Bridge?' });
    await user.click(cost);
    await user.click(hue);
    expect(cost).toHaveAttribute('aria-expanded', 'true');
    expect(hue).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(/Lifetime access costs A\$20, paid once/)).toBeVisible();
    await user.click(cost);
    expect(cost).toHaveAttribute('aria-expanded', 'false');
    expect(hue).toHaveAttribute('aria-expanded', 'true');
  });

  test('“Still have questions?” has a Contact Support mail link', () => {
    renderHelp();
    expect(screen.getByRole('heading', { name: 'Still have questions?' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact Support' })).toHaveAttribute(
      'href',
      'mailto:support@flaglight.app',
    );
  });
});
