import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useReducedMotion } from '../ui/use-reduced-motion';

const COARSE = '(pointer: coarse)';
const CLICKABLE = 'a[href], button, [role="button"], [role="tab"], input, select, textarea, label, summary';

function subscribeCoarse(onChange: () => void) {
  const query = typeof window.matchMedia === 'function' ? window.matchMedia(COARSE) : null;
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

function isCoarse() {
  return typeof window.matchMedia === 'function' ? window.matchMedia(COARSE).matches : true;
}

/**
 * The landing's glowing cursor: a soft light that follows the mouse and grows over anything
 * clickable. It sits beside the real cursor (never replaces it), ignores the pointer, is hidden
 * from assistive tech, and is off for touch screens and under reduced motion.
 */
export function GlowCursor() {
  const reducedMotion = useReducedMotion();
  const coarse = useSyncExternalStore(subscribeCoarse, isCoarse, () => true);
  const ref = useRef<HTMLDivElement>(null);
  const enabled = !reducedMotion && !coarse;

  useEffect(() => {
    const glow = ref.current;
    if (!enabled || !glow) return;
    let frame = 0;
    let x = 0;
    let y = 0;
    const onMove = (event: PointerEvent) => {
      if (event.pointerType === 'touch') return;
      x = event.clientX;
      y = event.clientY;
      const overClickable = event.target instanceof Element && event.target.closest(CLICKABLE) !== null;
      glow.dataset.active = overClickable ? 'true' : 'false';
      glow.dataset.visible = 'true';
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        glow.style.transform = `translate3d(${x}px, ${y}px, 0)`;
      });
    };
    const onLeave = () => {
      glow.dataset.visible = 'false';
    };
    window.addEventListener('pointermove', onMove, { passive: true });
    document.documentElement.addEventListener('pointerleave', onLeave);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('pointermove', onMove);
      document.documentElement.removeEventListener('pointerleave', onLeave);
    };
  }, [enabled]);

  if (!enabled) return null;
  return (
    <div
      ref={ref}
      aria-hidden="true"
      data-testid="glow-cursor"
      className="glow-cursor"
      data-visible="false"
    />
  );
}
