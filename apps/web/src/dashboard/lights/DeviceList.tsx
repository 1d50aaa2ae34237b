import type { LightDeviceInfo } from '@flaglight/lights';
import { ChevronLeft, ChevronRight, Eye, EyeOff, Search } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { filterDevices, pageButtons, pageCount, pageOf, showsSearch } from '../../lights/device-list';
import { INPUT_CLASS } from '../../login/FormField';
import { buttonClass } from '../../ui/button-styles';

interface DeviceListProps {
  /** 'LIFX' or 'Philips Hue', for accessible names. */
  providerName: string;
  devices: readonly LightDeviceInfo[];
  selected: readonly string[];
  hidden: readonly string[];
  onSelectedChange: (ids: string[]) => void;
  onHiddenChange: (ids: string[]) => void;
  /** The words for a device's `connected` state (default Online / Offline). */
  statusLabels?: { on: string; off: string };
  /** A line beside a light, by id (one that cannot be read: "as it was" leaves it as it is). */
  notes?: Readonly<Record<string, string>>;
}

const ONLINE_LABELS = { on: 'Online', off: 'Offline' };

/**
 * Which devices the list shows: the visible or the hidden ones, those matching the search (when
 * there are enough to search), one page of them. A new search or switch starts at page 1.
 */
function useDeviceListView(devices: readonly LightDeviceInfo[], hiddenSet: ReadonlySet<string>) {
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const [showHidden, setShowHidden] = useState(false);
  const listed = useMemo(
    () => devices.filter((d) => (showHidden ? hiddenSet.has(d.id) : !hiddenSet.has(d.id))),
    [devices, hiddenSet, showHidden],
  );
  const searchable = showsSearch(listed.length);
  const matches = useMemo(
    () => (searchable ? filterDevices(listed, query) : listed),
    [listed, query, searchable],
  );
  const pages = pageCount(matches.length);
  const current = Math.min(page, pages);
  const shown = pageOf(matches, current);

  useEffect(() => setPage(1), [query, showHidden]);
  useEffect(() => {
    if (!devices.some((d) => hiddenSet.has(d.id))) setShowHidden(false);
  }, [devices, hiddenSet]);

  return {
    query,
    setQuery,
    setPage,
    showHidden,
    setShowHidden,
    listed,
    searchable,
    matches,
    pages,
    current,
    shown,
  };
}

/**
 * SPEC §2 Light Control device list: search above 5 devices, Select all / Deselect all, 10 per
 * page with at most 5 page buttons, a hide button per device (hidden ones can be shown again).
 */
export function DeviceList({
  providerName,
  devices,
  selected,
  hidden,
  onSelectedChange,
  onHiddenChange,
  statusLabels = ONLINE_LABELS,
  notes,
}: DeviceListProps) {
  const hiddenSet = useMemo(() => new Set(hidden), [hidden]);
  const selectedSet = useMemo(() => new Set(selected), [selected]);
  const view = useDeviceListView(devices, hiddenSet);
  const { showHidden, matches } = view;

  const toggle = (id: string, on: boolean) =>
    onSelectedChange(on ? [...selected.filter((s) => s !== id), id] : selected.filter((s) => s !== id));
  const matchIds = matches.map((d) => d.id);
  const selectAll = () => onSelectedChange([...new Set([...selected, ...matchIds])]);
  const deselectAll = () => onSelectedChange(selected.filter((id) => !matchIds.includes(id)));
  const hide = (id: string) => {
    onHiddenChange([...hidden.filter((h) => h !== id), id]);
    // A hidden light is not driven.
    if (selectedSet.has(id)) onSelectedChange(selected.filter((s) => s !== id));
  };
  const unhide = (id: string) => onHiddenChange(hidden.filter((h) => h !== id));

  const selectedCount = devices.filter((d) => selectedSet.has(d.id)).length;
  const hiddenCount = devices.filter((d) => hiddenSet.has(d.id)).length;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-ink-300" aria-live="polite">
          {selectedCount} of {devices.length - hiddenCount} selected
        </p>
        {!showHidden && (
          <div className="flex gap-2">
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              onClick={selectAll}
              disabled={matches.length === 0}
            >
              Select all
            </button>
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              onClick={deselectAll}
              disabled={matches.every((d) => !selectedSet.has(d.id))}
            >
              Deselect all
            </button>
          </div>
        )}
      </div>

      {view.searchable && (
        <DeviceSearch providerName={providerName} query={view.query} onQueryChange={view.setQuery} />
      )}

      {view.shown.length === 0 ? (
        <p className="text-ink-300">
          {view.listed.length === 0
            ? showHidden
              ? 'No hidden lights.'
              : 'All lights are hidden.'
            : 'No lights match.'}
        </p>
      ) : (
        <ul
          aria-label={`${providerName} lights`}
          className="flex flex-col divide-y divide-ink-600 rounded-control border border-ink-600"
        >
          {view.shown.map((device) => (
            <DeviceRow
              key={device.id}
              device={device}
              isHidden={hiddenSet.has(device.id)}
              isSelected={selectedSet.has(device.id)}
              statusLabels={statusLabels}
              note={notes?.[device.id]}
              onToggle={(on) => toggle(device.id, on)}
              onHideToggle={() => (hiddenSet.has(device.id) ? unhide(device.id) : hide(device.id))}
            />
          ))}
        </ul>
      )}

      {view.pages > 1 && (
        <DevicePager
          providerName={providerName}
          current={view.current}
          pages={view.pages}
          onPage={view.setPage}
        />
      )}

      {hiddenCount > 0 && (
        <button
          type="button"
          className={buttonClass('ghost', 'sm', 'self-start')}
          aria-pressed={showHidden}
          onClick={() => view.setShowHidden(!showHidden)}
        >
          {showHidden ? 'Back to visible lights' : `Show hidden lights (${hiddenCount})`}
        </button>
      )}
    </div>
  );
}

function DeviceSearch({
  providerName,
  query,
  onQueryChange,
}: {
  providerName: string;
  query: string;
  onQueryChange: (query: string) => void;
}) {
  const searchId = useId();
  return (
    <div className="relative">
      <label htmlFor={searchId} className="sr-only">
        Search {providerName} lights
      </label>
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-ink-300"
      />
      <input
        id={searchId}
        type="search"
        placeholder="Search lights"
        className={`${INPUT_CLASS} pl-10`}
        value={query}
        onChange={(event) => onQueryChange(event.target.value)}
      />
    </div>
  );
}

/** One device: its checkbox and place, whether it is reachable, and its hide (or show) button. */
function DeviceRow({
  device,
  isHidden,
  isSelected,
  statusLabels,
  note,
  onToggle,
  onHideToggle,
}: {
  device: LightDeviceInfo;
  isHidden: boolean;
  isSelected: boolean;
  statusLabels: { on: string; off: string };
  note: string | undefined;
  onToggle: (on: boolean) => void;
  onHideToggle: () => void;
}) {
  const place = [device.group?.name, device.location?.name].filter(Boolean).join(' · ');
  return (
    <li className="flex items-center gap-3 px-3 py-1.5">
      <label className="flex min-h-11 min-w-0 flex-1 cursor-pointer items-center gap-3">
        <input
          type="checkbox"
          className="size-5 shrink-0 accent-accent"
          checked={isSelected}
          disabled={isHidden}
          onChange={(event) => onToggle(event.target.checked)}
        />
        <span className="flex min-w-0 flex-col">
          <span className="break-words text-ink-100">{device.label}</span>
          {place && <span className="text-caption text-ink-300">{place}</span>}
          {note && <span className="text-caption text-flag-yellow">{note}</span>}
        </span>
      </label>
      <span
        className={`flex shrink-0 items-center gap-1.5 text-caption ${device.connected ? 'text-flag-green' : 'text-ink-300'}`}
      >
        <span
          aria-hidden="true"
          className={`size-2 rounded-full ${device.connected ? 'bg-flag-green' : 'bg-ink-400'}`}
        />
        {device.connected ? statusLabels.on : statusLabels.off}
      </span>
      <button
        type="button"
        className={buttonClass('ghost', 'sm', 'shrink-0')}
        aria-label={`${isHidden ? 'Show' : 'Hide'} ${device.label}`}
        onClick={onHideToggle}
      >
        {isHidden ? (
          <Eye aria-hidden="true" className="size-4" />
        ) : (
          <EyeOff aria-hidden="true" className="size-4" />
        )}
      </button>
    </li>
  );
}

/** Previous, at most five page numbers, Next. */
function DevicePager({
  providerName,
  current,
  pages,
  onPage,
}: {
  providerName: string;
  current: number;
  pages: number;
  onPage: (page: number) => void;
}) {
  return (
    <nav
      aria-label={`${providerName} light pages`}
      className="flex flex-wrap items-center justify-center gap-1"
    >
      <button
        type="button"
        className={buttonClass('ghost', 'sm')}
        aria-label="Previous page"
        disabled={current === 1}
        onClick={() => onPage(current - 1)}
      >
        <ChevronLeft aria-hidden="true" className="size-4" />
      </button>
      {pageButtons(current, pages).map((n) => (
        <button
          key={n}
          type="button"
          aria-label={`Page ${n}`}
          aria-current={n === current ? 'page' : undefined}
          className={buttonClass(n === current ? 'primary' : 'ghost', 'sm', 'min-w-11')}
          onClick={() => onPage(n)}
        >
          {n}
        </button>
      ))}
      <button
        type="button"
        className={buttonClass('ghost', 'sm')}
        aria-label="Next page"
        disabled={current === pages}
        onClick={() => onPage(current + 1)}
      >
        <ChevronRight aria-hidden="true" className="size-4" />
      </button>
    </nav>
  );
}
