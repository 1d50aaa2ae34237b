import { CalendarDays } from 'lucide-react';
import type { ReactNode } from 'react';
import { Panel } from '../../ui/Panel';

/**
 * The Formula 1 Calendar panel's frame (SPEC §2 Dashboard). Its body belongs to the schedule work, which
 * passes it as children; until then the panel shows its heading only.
 */
export function RaceSchedulePanel({ children }: { children?: ReactNode }) {
  return (
    <Panel title="Formula 1 Calendar" icon={CalendarDays} className="flex-1">
      {children}
    </Panel>
  );
}
