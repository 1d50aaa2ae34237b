import { TOOLTIP_DELAY_MS } from '@flaglight/core';
import * as RadixTooltip from '@radix-ui/react-tooltip';
import type { ReactElement, ReactNode } from 'react';

/**
 * A hint that opens after 500 ms of hover or on keyboard focus (SPEC §9). Carries its own
 * provider so the landing page, which has no tooltips, never loads Radix Tooltip.
 */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactElement }) {
  return (
    <RadixTooltip.Provider delayDuration={TOOLTIP_DELAY_MS}>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content
            sideOffset={8}
            collisionPadding={12}
            className="z-[70] max-w-xs rounded-control border border-ink-600 bg-ink-700 px-3 py-2 text-caption text-ink-100 shadow-card motion-safe:animate-route-fade"
          >
            {content}
            <RadixTooltip.Arrow className="fill-ink-700" />
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
