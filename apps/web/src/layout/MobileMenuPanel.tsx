import * as Dialog from '@radix-ui/react-dialog';
import { HelpCircle, Home, LogIn, Settings, UserPlus, X, type LucideIcon } from 'lucide-react';
import type { RefObject } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { Logo } from './Logo';
import { deriveMobileMenuItems } from './nav-items';

const ICONS: Record<string, LucideIcon> = {
  Home,
  Settings,
  Help: HelpCircle,
  'Sign In': LogIn,
  'Sign Up': UserPlus,
};

interface MobileMenuPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The toggle outside this lazily loaded module; focus goes back to it on close. */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}

/** The slide-in menu of SPEC §2 Navigation: a modal dialog, 80 units wide, at most 85% of the viewport. */
export function MobileMenuPanel({ open, onOpenChange, returnFocusTo }: MobileMenuPanelProps) {
  const { isAuthenticated } = useAuth();
  const items = deriveMobileMenuItems({ isAuthenticated });

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay
          data-testid="menu-backdrop"
          className="fixed inset-0 z-40 bg-black/70 backdrop-blur-sm motion-safe:data-[state=open]:animate-backdrop-in"
        />
        <Dialog.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
          className="fixed inset-y-0 left-0 z-50 flex w-80 max-w-[85vw] flex-col border-r border-ink-600 bg-ink-900 shadow-card motion-safe:data-[state=closed]:animate-menu-out motion-safe:data-[state=open]:animate-menu-in"
        >
          <div className="flex h-16 items-center justify-between border-b border-ink-700 px-5">
            <Logo />
            <Dialog.Close
              aria-label="Close menu"
              className="-mr-2 grid size-11 place-items-center rounded-control text-ink-300 hover:bg-ink-700 hover:text-ink-100"
            >
              <X aria-hidden="true" className="size-6" />
            </Dialog.Close>
          </div>
          <Dialog.Title className="sr-only">Menu</Dialog.Title>
          <nav aria-label="Menu" className="flex-1 overflow-y-auto px-3 py-4">
            <ul className="flex flex-col gap-1">
              {items.map((item) => {
                const Icon = ICONS[item.label] ?? Home;
                return (
                  <li key={item.label}>
                    <Link
                      to={item.to}
                      onClick={() => onOpenChange(false)}
                      className={
                        item.primary
                          ? 'mt-2 flex min-h-12 items-center gap-3 rounded-control bg-accent px-4 text-lg font-semibold text-on-accent hover:bg-accent-strong'
                          : 'flex min-h-12 items-center gap-3 rounded-control px-4 text-lg font-medium text-ink-100 hover:bg-ink-700'
                      }
                    >
                      <Icon aria-hidden="true" className="size-5 opacity-80" />
                      {item.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
          <p className="border-t border-ink-700 px-5 py-4 text-caption text-ink-300">
            Not affiliated with Formula 1
          </p>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
