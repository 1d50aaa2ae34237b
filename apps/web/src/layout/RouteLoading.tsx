export function RouteLoading() {
  return (
    <div role="status" className="grid place-items-center py-24 text-ink-300">
      <span className="flex items-center gap-3">
        <span
          aria-hidden="true"
          className="size-5 rounded-full border-2 border-ink-600 border-t-accent motion-safe:animate-spin"
        />
        Loading…
      </span>
    </div>
  );
}
