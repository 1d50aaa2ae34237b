import { createToastStore, type ShowToastOptions } from './toast-store';

type TypedOptions = Omit<ShowToastOptions, 'type'>;

/** The app's one toast queue; <Toaster /> shows it. */
export const toastStore = createToastStore();

/**
 * Shows a toast (SPEC §3, §9). `toast('Saved')` lasts 5 s; the typed forms use the durations
 * of their type: success 4 s, error 6 s, warning 5 s, info 4 s. Returns the toast's id.
 */
export function toast(title: string, options?: ShowToastOptions): string {
  return toastStore.show(title, options);
}
toast.success = (title: string, options?: TypedOptions) =>
  toastStore.show(title, { ...options, type: 'success' });
toast.error = (title: string, options?: TypedOptions) =>
  toastStore.show(title, { ...options, type: 'error' });
toast.warning = (title: string, options?: TypedOptions) =>
  toastStore.show(title, { ...options, type: 'warning' });
toast.info = (title: string, options?: TypedOptions) => toastStore.show(title, { ...options, type: 'info' });
toast.dismiss = (id: string) => toastStore.dismiss(id);
