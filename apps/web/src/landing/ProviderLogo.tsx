import { Lightbulb } from 'lucide-react';
import { useState } from 'react';
import fallbackLogo from './logos/fallback.svg';

type Stage = 'logo' | 'fallback' | 'icon';

/** A provider's logo; if it fails to load, a generic image; if that fails too, a lucide icon (SPEC §2). */
export function ProviderLogo({ src, name }: { src: string; name: string }) {
  const [stage, setStage] = useState<Stage>('logo');
  if (stage === 'icon') {
    return <Lightbulb role="img" aria-label={`${name} logo`} className="size-10 text-ink-300" />;
  }
  return (
    <img
      src={stage === 'logo' ? src : fallbackLogo}
      alt={`${name} logo`}
      width={120}
      height={40}
      decoding="async"
      onError={() => setStage(stage === 'logo' ? 'fallback' : 'icon')}
      className="h-10 w-30 object-contain"
    />
  );
}
