import { LOOK_PRESETS, TRACKSIDE, type LookSet } from '@flaglight/core';
import { Download, RotateCcw, Upload } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { buttonClass } from '../../ui/button-styles';
import { colorToCss } from './look-color';
import { copyLookSet, matchingPreset } from './look-draft';
import { downloadLooksFile, readLooksFile } from './looks-file-io';
import { FLAG_ORDER, LOOKS_TEXTS as T } from './looks-texts';

/** A strip of a look set's colours, flag by flag (a left flag shows as an empty ring). */
export function LookSwatches({ looks }: { looks: LookSet }) {
  return (
    <span aria-hidden="true" className="flex flex-wrap gap-1">
      {FLAG_ORDER.map((flag) => {
        const look = looks.flags[flag];
        return (
          <span
            key={flag}
            className="size-6 rounded-full border border-ink-600"
            style={{
              backgroundColor:
                look.kind === 'show'
                  ? colorToCss(look.color, Math.min(look.brightness, looks.brightnessCap))
                  : 'transparent',
            }}
          />
        );
      })}
    </span>
  );
}

type ImportResult = { ok: true; name: string } | { ok: false; error: string } | null;

/** The presets (one press uses one), Reset to Trackside, and a looks file out and in. */
export function LookPresets({ looks, onChoose }: { looks: LookSet; onChoose: (looks: LookSet) => void }) {
  const current = matchingPreset(looks);
  const fileInput = useRef<HTMLInputElement>(null);
  const [result, setResult] = useState<ImportResult>(null);
  const statusId = useId();

  const choose = (next: LookSet) => {
    setResult(null);
    onChoose(copyLookSet(next));
  };
  const importFile = async (file: File | undefined) => {
    if (!file) return;
    const read = await readLooksFile(file);
    setResult(read.ok ? { ok: true, name: read.name } : read);
    if (read.ok) onChoose(read.looks);
  };

  return (
    <div className="flex flex-col gap-4">
      <ul className="grid grid-cols-1 gap-3 md:grid-cols-3">
        {LOOK_PRESETS.map((preset) => (
          <li key={preset.id} className="flex">
            <button
              type="button"
              aria-pressed={current === preset.id}
              onClick={() => choose(preset.looks)}
              className="flex w-full flex-col items-start gap-2 rounded-control border border-ink-600 bg-ink-900/40 p-4 text-left hover:border-ink-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent aria-pressed:border-accent aria-pressed:bg-accent/10"
            >
              <span className="flex w-full items-center justify-between gap-2 font-semibold text-ink-100">
                {preset.name}
                {current === preset.id && (
                  <span className="text-caption font-normal text-accent">{T.presetChosen}</span>
                )}
              </span>
              <LookSwatches looks={preset.looks} />
              <span className="text-caption text-ink-300">{preset.description}</span>
            </button>
          </li>
        ))}
      </ul>
      {current === null && <p className="text-caption text-ink-300">{T.custom}</p>}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={buttonClass('secondary', 'sm')}
          disabled={current === 'trackside'}
          onClick={() => choose(TRACKSIDE)}
        >
          <RotateCcw aria-hidden="true" className="size-4" />
          {T.reset}
        </button>
        <button
          type="button"
          className={buttonClass('secondary', 'sm')}
          onClick={() => downloadLooksFile(looks)}
        >
          <Download aria-hidden="true" className="size-4" />
          {T.exportFile}
        </button>
        <button
          type="button"
          className={buttonClass('secondary', 'sm')}
          aria-describedby={result ? statusId : undefined}
          onClick={() => fileInput.current?.click()}
        >
          <Upload aria-hidden="true" className="size-4" />
          {T.importFile}
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="application/json,.json"
          className="sr-only"
          tabIndex={-1}
          aria-label={T.importInput}
          onChange={(event) => {
            const input = event.currentTarget;
            void importFile(input.files?.[0]).finally(() => (input.value = ''));
          }}
        />
      </div>
      {result && (
        <p
          id={statusId}
          role={result.ok ? 'status' : 'alert'}
          className={`text-caption ${result.ok ? 'text-ink-300' : 'text-danger'} [overflow-wrap:anywhere]`}
        >
          {result.ok ? T.imported(result.name) : result.error}
        </p>
      )}
    </div>
  );
}
