import { REDUCE_DELAY_TEXTS } from '@flaglight/core';
import * as Dialog from '@radix-ui/react-dialog';
import { buttonClass } from '../ui/button-styles';

interface ReduceDelayDialogProps {
  /** The delay asked for, or null when no reduction waits for an answer. */
  pending: number | null;
  current: number;
  onConfirm: () => void;
  onCancel: () => void;
}

/** SPEC §4 Delay: a lower delay can make the lights give away what the TV has not shown yet. */
export function ReduceDelayDialog({ pending, current, onConfirm, onCancel }: ReduceDelayDialogProps) {
  return (
    <Dialog.Root open={pending !== null} onOpenChange={(open) => !open && onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-ink-950/80 backdrop-blur-sm motion-safe:animate-backdrop-in" />
        <Dialog.Content
          role="alertdialog"
          className="fixed top-1/2 left-1/2 z-50 flex w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col gap-4 rounded-card border border-ink-600 bg-ink-800 p-6 shadow-card motion-safe:animate-route-fade"
        >
          <Dialog.Title className="font-display text-2xl font-bold tracking-tight uppercase italic">
            {REDUCE_DELAY_TEXTS.title}
          </Dialog.Title>
          <Dialog.Description className="text-ink-300">
            From {current} s to {pending ?? current} s. If your lights change before your TV shows the moment,
            they can give away a crash or a safety car before you see it.
          </Dialog.Description>
          <div className="mt-2 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Dialog.Close className={buttonClass('secondary')}>{REDUCE_DELAY_TEXTS.cancel}</Dialog.Close>
            <button type="button" onClick={onConfirm} className={buttonClass('primary')}>
              {REDUCE_DELAY_TEXTS.confirm}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
