import { shouldShowUpgradeSection } from '@flaglight/core';
import {
  Cable,
  Cloud,
  CloudSun,
  Crown,
  Flag,
  Hexagon,
  House,
  Laptop,
  Lightbulb,
  LogOut,
  RadioTower,
  Router,
  SlidersHorizontal,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { useAuth } from '../auth/auth-context';
import { useSignOut } from '../auth/use-sign-out';
import { buttonClass } from '../ui/button-styles';
import { Page } from '../ui/Page';
import { CompanionBrandSection, MqttSection } from './CompanionBrandSection';
import { DevicesSection } from './DevicesSection';
import { GoveeLanSection } from './GoveeLanSection';
import { GoveeSection } from './GoveeSection';
import { HueSection } from './HueSection';
import { LAN_TEXTS } from './lan-texts';
import { LifxSection } from './LifxSection';
import { FlagsAndEffectsSection } from './looks/FlagsAndEffectsSection';
import { NanoleafSection } from './NanoleafSection';
import { PreferencesSection } from './PreferencesSection';
import { SettingsSection } from './SettingsSection';
import { UpgradeSection } from './UpgradeSection';
import { useSettingsSections, type SettingsSectionId } from './use-settings-sections';

interface BrandSection {
  id: SettingsSectionId;
  title: string;
  icon: LucideIcon;
  body: ReactNode;
}

/** The sections above Upgrade and Account, in their order on the page. */
const SECTIONS: readonly BrandSection[] = [
  { id: 'lifx', title: 'LIFX Connection', icon: Cloud, body: <LifxSection /> },
  { id: 'hue', title: 'Philips Hue Remote API', icon: Lightbulb, body: <HueSection /> },
  { id: 'govee', title: 'Govee Cloud', icon: CloudSun, body: <GoveeSection /> },
  { id: 'nanoleaf', title: 'Nanoleaf', icon: Hexagon, body: <NanoleafSection /> },
  { id: 'govee-lan', title: 'Govee (LAN)', icon: Router, body: <GoveeLanSection /> },
  {
    id: 'home-assistant',
    title: 'Home Assistant',
    icon: House,
    body: <CompanionBrandSection provider="home_assistant" texts={LAN_TEXTS.homeAssistant} />,
  },
  {
    id: 'wled',
    title: 'WLED',
    icon: Cable,
    body: <CompanionBrandSection provider="wled" texts={LAN_TEXTS.wled} />,
  },
  { id: 'mqtt', title: 'MQTT', icon: RadioTower, body: <MqttSection /> },
  { id: 'looks', title: 'Flags & effects', icon: Flag, body: <FlagsAndEffectsSection /> },
  { id: 'preferences', title: 'App Preferences', icon: SlidersHorizontal, body: <PreferencesSection /> },
  { id: 'devices', title: 'Devices', icon: Laptop, body: <DevicesSection /> },
];

export function SettingsPage() {
  const { user } = useAuth();
  const showUpgrade = user ? shouldShowUpgradeSection(user) : false;
  const { open, openSection, upgradeOpen, setUpgradeOpen, upgradeTrigger } = useSettingsSections();

  return (
    <Page title="Settings">
      <div className="flex flex-col gap-6">
        {SECTIONS.map(({ id, title, icon: Icon, body }) => (
          <SettingsSection
            key={id}
            id={id}
            title={title}
            icon={<Icon aria-hidden="true" className="size-5 text-accent" />}
            open={open[id]}
            onOpenChange={(next) => openSection(id, next)}
          >
            {body}
          </SettingsSection>
        ))}
        {showUpgrade && (
          <SettingsSection
            ref={upgradeTrigger}
            id="upgrade"
            title="Upgrade to Pro"
            icon={<Crown aria-hidden="true" className="size-5 text-flag-yellow" />}
            open={upgradeOpen}
            onOpenChange={setUpgradeOpen}
          >
            <UpgradeSection />
          </SettingsSection>
        )}
        <AccountSection />
      </div>
    </Page>
  );
}

/** Who is signed in, and Sign Out. */
function AccountSection() {
  const signOut = useSignOut();
  const { user } = useAuth();
  return (
    <section
      aria-labelledby="sign-out-heading"
      className="flex flex-col items-start gap-4 rounded-card border border-ink-600 bg-ink-800 p-5 shadow-card md:p-6"
    >
      <h2 id="sign-out-heading" className="text-xl font-semibold">
        Account
      </h2>
      {user && <p className="break-all text-ink-300">Signed in as {user.email}</p>}
      <button type="button" className={buttonClass('danger')} onClick={signOut}>
        <LogOut aria-hidden="true" className="size-5" />
        Sign Out
      </button>
    </section>
  );
}
