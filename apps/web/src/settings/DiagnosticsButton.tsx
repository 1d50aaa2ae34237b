import { Stethoscope } from 'lucide-react';
import { buttonClass } from '../ui/button-styles';

/** The button that starts a brand's diagnostics in Settings (cloud, bridge or LAN), one look for all. */
export function DiagnosticsButton({
  label,
  runningLabel = label,
  running,
  onClick,
  inRow = false,
}: {
  label: string;
  /** What the button says while the check runs (by default, the same). */
  runningLabel?: string;
  running: boolean;
  onClick: () => void;
  /** In a row of buttons it keeps the row's alignment; alone in a column it keeps to the start. */
  inRow?: boolean;
}) {
  return (
    <button
      type="button"
      className={buttonClass('secondary', 'md', inRow ? '' : 'self-start')}
      disabled={running}
      onClick={onClick}
    >
      <Stethoscope aria-hidden="true" className="size-5" />
      {running ? runningLabel : label}
    </button>
  );
}
