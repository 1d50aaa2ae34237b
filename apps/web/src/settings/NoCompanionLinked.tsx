import { Download, Laptop } from 'lucide-react';
import { Link } from 'react-router';
import { COMPANION_TEXTS, DOWNLOADS } from '../companion/companion-texts';
import { buttonClass } from '../ui/button-styles';
import { LAN_TEXTS as T } from './lan-texts';
import { DEVICES_SECTION_PATH } from './settings-paths';

/** What a LAN brand's section says while the account has no companion: what it is, and where to get it. */
export function NoCompanionLinked() {
  return (
    <div className="flex flex-col gap-3">
      <p className="text-ink-300">{T.noCompanion}</p>
      <div className="flex flex-wrap gap-3">
        <a href={DOWNLOADS.windows} className={buttonClass('secondary', 'sm')}>
          <Download aria-hidden="true" className="size-4" />
          {COMPANION_TEXTS.downloadWindows}
        </a>
        <a href={DOWNLOADS.linux} className={buttonClass('secondary', 'sm')}>
          <Download aria-hidden="true" className="size-4" />
          {COMPANION_TEXTS.downloadLinux}
        </a>
        <Link to={DEVICES_SECTION_PATH} className={buttonClass('ghost', 'sm')}>
          <Laptop aria-hidden="true" className="size-4" />
          {T.openDevices}
        </Link>
      </div>
    </div>
  );
}
