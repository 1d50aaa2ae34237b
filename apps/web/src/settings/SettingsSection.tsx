import * as Collapsible from '@radix-ui/react-collapsible';
import { ChevronDown } from 'lucide-react';
import { forwardRef, type ReactNode } from 'react';

interface SettingsSectionProps {
  id: string;
  title: string;
  icon?: ReactNode;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}

/** One collapsible section of Settings (SPEC §2 Settings); the trigger is the section's heading. */
export const SettingsSection = forwardRef<HTMLButtonElement, SettingsSectionProps>(function SettingsSection(
  { id, title, icon, open, onOpenChange, children },
  triggerRef,
) {
  return (
    <Collapsible.Root
      open={open}
      onOpenChange={onOpenChange}
      className="rounded-card border border-ink-600 bg-ink-800 shadow-card"
    >
      <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-24">
        <h2 id={`${id}-heading`} className="text-xl font-semibold">
          <Collapsible.Trigger
            ref={triggerRef}
            className="flex min-h-14 w-full items-center gap-3 rounded-card px-5 py-4 text-left hover:bg-ink-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent md:px-6"
          >
            {icon}
            <span className="flex-1">{title}</span>
            <ChevronDown
              aria-hidden="true"
              className={`size-5 text-ink-300 transition-transform motion-reduce:transition-none ${open ? 'rotate-180' : ''}`}
            />
          </Collapsible.Trigger>
        </h2>
        <Collapsible.Content className="border-t border-ink-600 px-5 py-6 md:px-6">
          {children}
        </Collapsible.Content>
      </section>
    </Collapsible.Root>
  );
});
