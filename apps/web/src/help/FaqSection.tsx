import * as Collapsible from '@radix-ui/react-collapsible';
import * as Tabs from '@radix-ui/react-tabs';
import { ChevronDown, Mail } from 'lucide-react';
import { useState } from 'react';
import { buttonClass } from '../ui/button-styles';
import { countFaqItems, FAQ_ITEMS, FAQ_TABS } from './faq-content';

/**
 * SPEC §2 Help version A: category tabs with counts, questions that open and close on their
 * own (several may be open), and 'Still have questions?' with Contact Support.
 */
export function FaqSection({ supportEmail }: { supportEmail: string }) {
  const counts = countFaqItems();
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());

  const toggle = (question: string, isOpen: boolean) =>
    setOpen((current) => {
      const next = new Set(current);
      if (isOpen) next.add(question);
      else next.delete(question);
      return next;
    });

  return (
    <section aria-labelledby="faq-title" className="flex flex-col gap-6">
      <h2 id="faq-title" className="font-display text-title font-bold tracking-tight uppercase italic">
        Frequently Asked Questions
      </h2>
      <Tabs.Root defaultValue="all" className="flex flex-col gap-5">
        <Tabs.List
          aria-label="Question categories"
          className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1 [scrollbar-width:thin]"
        >
          {FAQ_TABS.map((tab) => (
            <Tabs.Trigger
              key={tab.value}
              value={tab.value}
              className="group inline-flex min-h-11 shrink-0 items-center gap-2 rounded-full border border-ink-600 bg-ink-800 px-4 font-semibold text-ink-300 hover:text-ink-100 data-[state=active]:border-accent data-[state=active]:bg-accent data-[state=active]:text-on-accent"
            >
              {tab.label}
              <span className="rounded-full bg-ink-700 px-2 py-0.5 font-mono text-caption text-ink-100 group-data-[state=active]:bg-on-accent group-data-[state=active]:text-accent">
                {counts[tab.value]}
              </span>
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {FAQ_TABS.map((tab) => (
          <Tabs.Content key={tab.value} value={tab.value} className="focus-visible:outline-offset-8">
            <ul className="flex flex-col gap-3">
              {FAQ_ITEMS.filter((item) => tab.value === 'all' || item.category === tab.value).map((item) => (
                <li key={item.question}>
                  <Collapsible.Root
                    open={open.has(item.question)}
                    onOpenChange={(isOpen) => toggle(item.question, isOpen)}
                    className="rounded-card border border-ink-600 bg-ink-800"
                  >
                    <h3>
                      <Collapsible.Trigger className="group flex min-h-14 w-full items-center justify-between gap-4 rounded-card px-5 py-3 text-left font-semibold text-ink-100 hover:bg-ink-700">
                        {item.question}
                        <ChevronDown
                          aria-hidden="true"
                          className="size-5 shrink-0 text-ink-300 transition-transform group-data-[state=open]:rotate-180"
                        />
                      </Collapsible.Trigger>
                    </h3>
                    <Collapsible.Content className="px-5 pb-5 text-ink-300">
                      <p>{item.answer}</p>
                    </Collapsible.Content>
                  </Collapsible.Root>
                </li>
              ))}
            </ul>
          </Tabs.Content>
        ))}
      </Tabs.Root>
      <div className="flex flex-col items-start gap-3 rounded-card border border-ink-600 bg-ink-900 p-6 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h3 className="font-display text-2xl font-bold tracking-tight uppercase italic">
            Still have questions?
          </h3>
          <p className="text-ink-300">We answer every e-mail, usually within a day.</p>
        </div>
        <a href={`mailto:${supportEmail}`} className={buttonClass('primary')}>
          <Mail aria-hidden="true" className="size-5" />
          Contact Support
        </a>
      </div>
    </section>
  );
}
