import type { ToastType } from '@flaglight/core';
import { CircleAlert, CircleCheck, Info, TriangleAlert, X, type LucideIcon } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { toastStore as defaultStore } from './toast';
import type { ToastStore } from './toast-store';

const LOOK: Record<ToastType, { icon: LucideIcon; className: string }> = {
  success: { icon: CircleCheck, className: 'text-flag-green' },
  error: { icon: CircleAlert, className: 'text-danger' },
  warning: { icon: TriangleAlert, className: 'text-flag-yellow' },
  info: { icon: Info, className: 'text-ink-100' },
};

/** The on-screen stack of toasts, newest at the bottom; reading (hover or focus) pauses them. */
export function Toaster({ store = defaultStore }: { store?: ToastStore }) {
  const toasts = useSyncExternalStore(store.subscribe, store.getToasts, store.getToasts);
  return (
    <section
      aria-label="Notifications"
      aria-live="polite"
      onPointerEnter={store.pause}
      onPointerLeave={store.resume}
      onFocus={store.pause}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) store.resume();
      }}
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex flex-col items-center gap-3 p-4 sm:items-end sm:p-6"
    >
      {toasts.map((item) => {
        const { icon: Icon, className } = LOOK[item.type];
        return (
          <div
            key={item.id}
            role={item.type === 'error' ? 'alert' : 'status'}
            data-type={item.type}
            className="pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-card border border-ink-600 bg-ink-800 p-4 shadow-card motion-safe:animate-toast-in"
          >
            <Icon aria-hidden="true" className={`mt-0.5 size-5 shrink-0 ${className}`} />
            <div className="min-w-0 flex-1">
              <p className="font-semibold text-ink-100">{item.title}</p>
              {item.message && <p className="mt-0.5 text-caption text-ink-300">{item.message}</p>}
              {item.action && (
                <button
                  type="button"
                  onClick={() => {
                    item.action?.onClick();
                    store.dismiss(item.id);
                  }}
                  className="mt-1 inline-flex min-h-11 items-center rounded-control text-caption font-semibold text-accent underline underline-offset-4 hover:text-accent-strong"
                >
                  {item.action.label}
                </button>
              )}
            </div>
            <button
              type="button"
              aria-label="Dismiss notification"
              onClick={() => store.dismiss(item.id)}
              className="-my-3 -mr-3 flex size-11 shrink-0 items-center justify-center rounded-control text-ink-300 hover:bg-ink-700 hover:text-ink-100"
            >
              <X aria-hidden="true" className="size-4" />
            </button>
          </div>
        );
      })}
    </section>
  );
}
