import { describe, expect, test } from 'vitest';
import { HOW_IT_WORKS, INTEGRATIONS } from '../landing/landing-content';
import { FAQ_ITEMS } from './faq-content';
import { HELP_CATEGORIES } from './help-content';

const BRANDS = ['LIFX', 'Philips Hue', 'Nanoleaf', 'Govee'];
const faqText = FAQ_ITEMS.map((item) => `${item.question} ${item.answer}`).join('\n');
const helpText = HELP_CATEGORIES.flatMap((c) => c.articles.map((a) => `${a.question} ${a.answer}`)).join(
  '\n',
);
const landingText = [...HOW_IT_WORKS.map((s) => s.text), ...INTEGRATIONS.map((i) => i.name)].join('\n');

// The texts name every way to light a room that exists today, not just the first two brands.
describe('help, FAQ and landing texts', () => {
  test.each([
    ['FAQ', faqText],
    ['help', helpText],
    ['landing', landingText],
  ])('the %s names all four brands, the companion and the on-screen light', (_, text) => {
    for (const brand of BRANDS) expect(text).toContain(brand);
    expect(text).toMatch(/companion|desktop app/i);
    expect(text).toMatch(/on-screen light/i);
  });

  test('the FAQ on mixing lights covers every brand and the on-screen light', () => {
    const mixing = FAQ_ITEMS.find((item) => /together/.test(item.question));
    for (const brand of BRANDS) expect(mixing?.answer).toContain(brand);
    expect(mixing?.answer).toMatch(/on-screen light/);
  });

  test('the FAQ answers whether the flashing can be stopped, and where', () => {
    const flashing = FAQ_ITEMS.find((item) => item.question === 'Can I stop the flashing?');
    expect(flashing?.answer).toMatch(/No flashing/);
    expect(flashing?.answer).toMatch(/Flags & effects/);
    expect(flashing?.answer).toMatch(/on-screen light/);
    expect(flashing?.answer).toMatch(/3 times a second/);
  });
});
