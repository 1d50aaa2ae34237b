import { shouldShowUpgradeSection } from '@flaglight/core';
import {
  Cable,
  Cloud,
  CloudSun,
  Crown,
  Hexagon,
  House,
  Laptop,
  Lightbulb,
  LogOut,
  RadioTower,
  Router,
  SlidersHorizontal,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { useSignOut } from '../auth/use-sign-out';
import { useLightControl } from '../lights/light-control-context';
import { buttonClass } from '../ui/button-styles';
import { Page } from '../ui/Page';
import { CompanionBrandSection, MqttSection } from './CompanionBrandSection';
import { DevicesSection } from './DevicesSection';
import { GoveeLanSection } from './GoveeLanSection';
import { GoveeSection } from './GoveeSection';
import { HueSection } from './HueSection';
import { LAN_TEXTS } from './lan-texts';
import { LifxSection } from './LifxSection';
import { NanoleafSection } from './NanoleafSection';
import { PreferencesSection } from './PreferencesSection';
import { SettingsSection } from './SettingsSection';
import { UpgradeSection } from './UpgradeSection';

export function SettingsPage() {
  const signOut = useSignOut();
  const { user } = useAuth();
  const [params] = useSearchParams();
  const wantsUpgrade = params.get('section') === 'upgrade';
  const [upgradeOpen, setUpgradeOpen] = useState(wantsUpgrade || user?.plan === 'trial');
  const upgradeTrigger = useRef<HTMLButtonElement>(null);
  const showUpgrade = user ? shouldShowUpgradeSection(user) : false;
  const { hueAuthResult } = useLightControl();
  const [lifxOpen, setLifxOpen] = useState(true);
  const [hueOpen, setHueOpen] = useState(hueAuthResult !== null);
  const [goveeOpen, setGoveeOpen] = useState(params.get('section') === 'govee');
  const [nanoleafOpen, setNanoleafOpen] = useState(params.get('section') === 'nanoleaf');
  const [goveeLanOpen, setGoveeLanOpen] = useState(params.get('section') === 'govee-lan');
  const [homeAssistantOpen, setHomeAssistantOpen] = useState(params.get('section') === 'home-assistant');
  const [wledOpen, setWledOpen] = useState(params.get('section') === 'wled');
  const [mqttOpen, setMqttOpen] = useState(params.get('section') === 'mqtt');
  const [preferencesOpen, setPreferencesOpen] = useState(false);
  const [devicesOpen, setDevicesOpen] = useState(params.get('section') === 'devices');
  const section = params.get('section');
  // A link within Settings (a LAN brand's "Devices") opens the section it names and brings it into view.
  useEffect(() => {
    const open: Record<string, (open: boolean) => void> = {
      nanoleaf: setNanoleafOpen,
      'govee-lan': setGoveeLanOpen,
      'home-assistant': setHomeAssistantOpen,
      wled: setWledOpen,
      mqtt: setMqttOpen,
      devices: setDevicesOpen,
    };
    if (!section || !open[section]) return;
    open[section](true);
    document.getElementById(section)?.scrollIntoView?.({ block: 'start' });
  }, [section]);
  // A Hue OAuth result that came back by redirect opens its section.
  useEffect(() => {
    if (hueAuthResult) setHueOpen(true);
  }, [hueAuthResult]);

  useEffect(() => {
    if (!wantsUpgrade) return;
    setUpgradeOpen(true);
    const trigger = upgradeTrigger.current;
    trigger?.scrollIntoView({ block: 'start' });
    trigger?.focus({ preventScroll: true });
  }, [wantsUpgrade]);

  return (
    <Page title="Settings">
      <div className="flex flex-col gap-6">
        <SettingsSection
          id="lifx"
          title="LIFX Connection"
          icon={<Cloud aria-hidden="true" className="size-5 text-accent" />}
          open={lifxOpen}
          onOpenChange={setLifxOpen}
        >
          <LifxSection />
        </SettingsSection>
        <SettingsSection
          id="hue"
          title="Philips Hue Remote API"
          icon={<Lightbulb aria-hidden="true" className="size-5 text-accent" />}
          open={hueOpen}
          onOpenChange={setHueOpen}
        >
          <HueSection />
        </SettingsSection>
        <SettingsSection
          id="govee"
          title="Govee Cloud"
          icon={<CloudSun aria-hidden="true" className="size-5 text-accent" />}
          open={goveeOpen}
          onOpenChange={setGoveeOpen}
        >
          <GoveeSection />
        </SettingsSection>
        <SettingsSection
          id="nanoleaf"
          title="Nanoleaf"
          icon={<Hexagon aria-hidden="true" className="size-5 text-accent" />}
          open={nanoleafOpen}
          onOpenChange={setNanoleafOpen}
        >
          <NanoleafSection />
        </SettingsSection>
        <SettingsSection
          id="govee-lan"
          title="Govee (LAN)"
          icon={<Router aria-hidden="true" className="size-5 text-accent" />}
          open={goveeLanOpen}
          onOpenChange={setGoveeLanOpen}
        >
          <GoveeLanSection />
        </SettingsSection>
        <SettingsSection
          id="home-assistant"
          title="Home Assistant"
          icon={<House aria-hidden="true" className="size-5 text-accent" />}
          open={homeAssistantOpen}
          onOpenChange={setHomeAssistantOpen}
        >
          <CompanionBrandSection provider="home_assistant" texts={LAN_TEXTS.homeAssistant} />
        </SettingsSection>
        <SettingsSection
          id="wled"
          title="WLED"
          icon={<Cable aria-hidden="true" className="size-5 text-accent" />}
          open={wledOpen}
          onOpenChange={setWledOpen}
        >
          <CompanionBrandSection provider="wled" texts={LAN_TEXTS.wled} />
        </SettingsSection>
        <SettingsSection
          id="mqtt"
          title="MQTT"
          icon={<RadioTower aria-hidden="true" className="size-5 text-accent" />}
          open={mqttOpen}
          onOpenChange={setMqttOpen}
        >
          <MqttSection />
        </SettingsSection>
        <SettingsSection
          id="preferences"
          title="App Preferences"
          icon={<SlidersHorizontal aria-hidden="true" className="size-5 text-accent" />}
          open={preferencesOpen}
          onOpenChange={setPreferencesOpen}
        >
          <PreferencesSection />
        </SettingsSection>
        <SettingsSection
          id="devices"
          title="Devices"
          icon={<Laptop aria-hidden="true" className="size-5 text-accent" />}
          open={devicesOpen}
          onOpenChange={setDevicesOpen}
        >
          <DevicesSection />
        </SettingsSection>
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
      </div>
    </Page>
  );
}
