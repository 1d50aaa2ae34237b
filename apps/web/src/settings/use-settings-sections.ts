import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { useLightControl } from '../lights/light-control-context';

export type SettingsSectionId =
  | 'lifx'
  | 'hue'
  | 'govee'
  | 'nanoleaf'
  | 'govee-lan'
  | 'home-assistant'
  | 'wled'
  | 'mqtt'
  | 'looks'
  | 'preferences'
  | 'devices';

/** Sections a link within Settings may open and bring into view (a LAN brand's "Devices"). */
const LINKABLE: readonly SettingsSectionId[] = [
  'nanoleaf',
  'govee-lan',
  'home-assistant',
  'wled',
  'mqtt',
  'looks',
  'devices',
];

function initialOpen(section: string | null, hueAuthReturned: boolean): Record<SettingsSectionId, boolean> {
  return {
    lifx: true,
    hue: hueAuthReturned,
    govee: section === 'govee',
    nanoleaf: section === 'nanoleaf',
    'govee-lan': section === 'govee-lan',
    'home-assistant': section === 'home-assistant',
    wled: section === 'wled',
    mqtt: section === 'mqtt',
    looks: section === 'looks',
    preferences: false,
    devices: section === 'devices',
  };
}

function isLinkable(section: string | null): section is SettingsSectionId {
  return LINKABLE.some((id) => id === section);
}

/**
 * Which Settings sections are open: LIFX at first, the one `?section=` names, Hue when its OAuth
 * result came back by redirect; the upgrade section for a trial or when asked for (then focused).
 */
export function useSettingsSections() {
  const { user } = useAuth();
  const [params] = useSearchParams();
  const section = params.get('section');
  const wantsUpgrade = section === 'upgrade';
  const { hueAuthResult } = useLightControl();
  const [open, setOpen] = useState(() => initialOpen(section, hueAuthResult !== null));
  const [upgradeOpen, setUpgradeOpen] = useState(wantsUpgrade || user?.plan === 'trial');
  const upgradeTrigger = useRef<HTMLButtonElement>(null);

  const openSection = useCallback(
    (id: SettingsSectionId, next: boolean) =>
      setOpen((current) => (current[id] === next ? current : { ...current, [id]: next })),
    [],
  );

  // A link within Settings (a LAN brand's "Devices") opens the section it names and brings it into view.
  useEffect(() => {
    if (!isLinkable(section)) return;
    openSection(section, true);
    document.getElementById(section)?.scrollIntoView?.({ block: 'start' });
  }, [section, openSection]);
  // A Hue OAuth result that came back by redirect opens its section.
  useEffect(() => {
    if (hueAuthResult) openSection('hue', true);
  }, [hueAuthResult, openSection]);

  useEffect(() => {
    if (!wantsUpgrade) return;
    setUpgradeOpen(true);
    const trigger = upgradeTrigger.current;
    trigger?.scrollIntoView({ block: 'start' });
    trigger?.focus({ preventScroll: true });
  }, [wantsUpgrade]);

  return { open, openSection, upgradeOpen, setUpgradeOpen, upgradeTrigger };
}
