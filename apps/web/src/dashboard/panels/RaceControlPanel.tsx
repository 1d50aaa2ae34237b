import { Flag } from 'lucide-react';
import type { ReactNode } from 'react';
import { Panel } from '../../ui/Panel';

/**
 * The Race Control panel's frame (SPEC §2 Dashboard). Its body belongs to the live-connection work, which
 * passes it as children; until then the panel shows its heading only.
 */
export function RaceControlPanel({ children }: { children?: ReactNode }) {
  return (
    <Panel title="Race Control" icon={Flag} className="flex-1">
      {children}
    </Panel>
  );
}
