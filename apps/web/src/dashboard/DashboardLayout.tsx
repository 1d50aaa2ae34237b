import type { ReactNode } from 'react';

export interface DashboardLayoutProps {
  /** The welcome header (plan badge, upgrade prompt). */
  welcome?: ReactNode;
  raceControl: ReactNode;
  broadcastDelay: ReactNode;
  raceSchedule: ReactNode;
  lightControl: ReactNode;
  /** The Trial Expired modal, or anything else that overlays the dashboard. */
  modal?: ReactNode;
}

/**
 * Where the dashboard's panels sit (SPEC §2 Dashboard). Each owner plugs a panel into its slot:
 * Race Control beside Broadcast Delay, then Light Control beside Race Schedule; one column on phones.
 */
export function DashboardLayout({
  welcome,
  raceControl,
  broadcastDelay,
  raceSchedule,
  lightControl,
  modal,
}: DashboardLayoutProps) {
  return (
    <div className="flex flex-col gap-6">
      {welcome}
      <div className="grid items-start gap-6 lg:grid-cols-12">
        <div data-slot="race-control" className="flex flex-col lg:col-span-7">
          {raceControl}
        </div>
        <div data-slot="broadcast-delay" className="flex flex-col lg:col-span-5">
          {broadcastDelay}
        </div>
        <div data-slot="light-control" className="flex flex-col lg:col-span-7">
          {lightControl}
        </div>
        <div data-slot="race-schedule" className="flex flex-col lg:col-span-5">
          {raceSchedule}
        </div>
      </div>
      {modal}
    </div>
  );
}
