export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

const BASE =
  'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-control font-semibold ' +
  'transition-colors duration-150 disabled:cursor-not-allowed disabled:opacity-50';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-accent text-on-accent hover:bg-accent-strong',
  secondary: 'border border-ink-600 bg-ink-800 text-ink-100 hover:border-ink-400 hover:bg-ink-700',
  ghost: 'text-ink-100 hover:bg-ink-700',
  danger: 'border border-danger/60 bg-danger/10 text-danger hover:bg-danger/20',
};

// Every size keeps a 44 px touch target.
const SIZES: Record<ButtonSize, string> = {
  sm: 'min-h-11 px-3 py-2',
  md: 'min-h-11 px-5 py-2.5',
  lg: 'min-h-12 px-6 py-3 text-lg',
};

/**
 * Class names for a button or a link styled as one, so both share one look. `extra` must not
 * repeat a property set here (display, padding, colour): Tailwind resolves clashes by
 * stylesheet order, not class order; use a variant (`max-sm:hidden`) instead.
 */
export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', extra = ''): string {
  return `${BASE} ${SIZES[size]} ${VARIANTS[variant]} ${extra}`.trim();
}
