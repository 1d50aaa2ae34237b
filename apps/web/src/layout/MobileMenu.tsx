import { Menu } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { useLocation } from 'react-router';

// The dialog code (Radix, focus trap, scroll lock) loads on first use, not with every page;
// hovering, focusing or touching the toggle starts the download early.
const loadPanel = () => import('./MobileMenuPanel');
const MobileMenuPanel = lazy(() => loadPanel().then((m) => ({ default: m.MobileMenuPanel })));

export function MobileMenu() {
  const location = useLocation();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const [used, setUsed] = useState(false);
  // The menu belongs to the location it was opened on: any navigation (a link, Back) closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === location.key;

  return (
    <>
      <button
        ref={toggleRef}
        type="button"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void loadPanel()}
        onTouchStart={() => void loadPanel()}
        onFocus={() => void loadPanel()}
        onClick={() => {
          setUsed(true);
          setOpenOn(location.key);
        }}
        className="-ml-2 grid size-11 place-items-center rounded-control text-ink-100 hover:bg-ink-700 md:hidden"
      >
        <Menu aria-hidden="true" className="size-6" />
      </button>
      {used && (
        <Suspense fallback={null}>
          <MobileMenuPanel
            open={open}
            onOpenChange={(next) => setOpenOn(next ? location.key : null)}
            returnFocusTo={toggleRef}
          />
        </Suspense>
      )}
    </>
  );
}
