import { RaceControlBody } from '../live/RaceControlBody';
import { usePaymentReturn } from '../payments/use-payment-return';
import { RaceScheduleBody } from '../schedule/RaceScheduleBody';
import { Page } from '../ui/Page';
import { DashboardLayout } from './DashboardLayout';
import { BroadcastDelayPanel } from './panels/BroadcastDelayPanel';
import { LightControlPanel } from './panels/LightControlPanel';
import { RaceControlPanel } from './panels/RaceControlPanel';
import { RaceSchedulePanel } from './panels/RaceSchedulePanel';
import { TrialExpiredModal } from './TrialExpiredModal';
import { WelcomeHeader } from './WelcomeHeader';

export function DashboardPage() {
  // SPEC §4 Plans: the checkout returns here with payment=success|cancelled.
  usePaymentReturn();
  return (
    <Page title="Dashboard">
      <TrialExpiredModal />
      <DashboardLayout
        welcome={<WelcomeHeader />}
        raceControl={
          <RaceControlPanel>
            <RaceControlBody />
          </RaceControlPanel>
        }
        broadcastDelay={<BroadcastDelayPanel />}
        lightControl={<LightControlPanel />}
        raceSchedule={
          <RaceSchedulePanel>
            <RaceScheduleBody />
          </RaceSchedulePanel>
        }
      />
    </Page>
  );
}
