import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { buttonClass } from './button-styles';

/**
 * Asks before a destructive step (delete a user, unlink a companion): a title, what will happen,
 * Cancel, and a danger button named for the step. Open while `open`; closing it by any means
 * calls `onCancel`.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog.Root open={props.open} onOpenChange={(open) => !open && props.onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 flex w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col gap-5 rounded-card border border-ink-600 bg-ink-800 p-6 shadow-card focus:outline-none">
          <Dialog.Title className="text-xl font-semibold">{props.title}</Dialog.Title>
          <Dialog.Description className="break-all text-ink-300">{props.description}</Dialog.Description>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Dialog.Close className={buttonClass('secondary')}>Cancel</Dialog.Close>
            <button type="button" className={buttonClass('danger')} onClick={props.onConfirm}>
              {props.confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
