import { Lightbulb } from 'lucide-react';
import type { ReactNode } from 'react';
import { Panel } from '../../ui/Panel';

/**
 * The Light Control panel's frame (SPEC §2 Dashboard). Its body belongs to the lights work, which
 * passes it as children; until then the panel shows its heading only.
 */
export function LightControlPanel({ children }: { children?: ReactNode }) {
  return (
    <Panel title="Light Control" icon={Lightbulb} className="flex-1">
      {children}
    </Panel>
  );
}
