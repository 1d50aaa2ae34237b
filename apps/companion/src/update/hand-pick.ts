// A version picked by hand on the status page, from the server's index of signed manifests: listed,
// then downloaded and installed at the next quiet moment. An older one only once the fan confirmed
// ("Install version X, older than the running Y?"), and only that version, this once.
import type { CheckInput } from './check.js';
import { listReleases, type CheckedRelease, type ReleaseOffer } from './releases.js';

export type HandPickResult =
  | { ok: true; message: string }
  | { ok: false; message: string; confirm?: { version: string; running: string } };

export interface HandPickContext<V extends { offered: ReleaseOffer[] | null; message: string | null }> {
  /** Updates on (no `--no-update`) and the updater not closed. */
  active: () => boolean;
  input: () => CheckInput;
  running: string;
  view: V;
  say: (message: string, level?: 'info' | 'warn') => void;
  /**
   * Downloads and checks the file beside the executable and, when it is ready, installs it at the
   * next quiet moment; false when it is not (the view's message says why).
   */
  downloadThenInstall: (release: CheckedRelease) => Promise<boolean>;
}

export function createHandPick<V extends { offered: ReleaseOffer[] | null; message: string | null }>(
  ctx: HandPickContext<V>,
) {
  const fail = (message: string): HandPickResult => {
    ctx.say(message, 'warn');
    return { ok: false, message };
  };

  async function listVersions(): Promise<V> {
    if (!ctx.active()) return ctx.view;
    const list = await listReleases(ctx.input());
    ctx.view.offered = list.releases.map((r) => r.offer);
    if (!list.ok) ctx.say(list.refused[0]!, 'warn');
    else if (list.refused.length > 0) ctx.say(list.refused.join(' '), 'warn');
    else if (ctx.view.offered.length === 0) ctx.say('The server offers no other version for this computer.');
    else ctx.view.message = null;
    return ctx.view;
  }

  async function installVersion(version: string, confirmOlder: boolean): Promise<HandPickResult> {
    if (!ctx.active()) return { ok: false, message: 'Updates are turned off (--no-update).' };
    // The index is read and verified again: nothing the page sent is trusted but the version's name.
    const list = await listReleases(ctx.input());
    const picked = list.releases.find((r) => r.offer.version === version);
    if (!picked) {
      const why = list.refused.find((line) => line.includes(`Version ${version} `)) ?? list.refused[0];
      return fail(why ?? `Version ${version} is not offered by the server.`);
    }
    if (picked.offer.older && !confirmOlder) {
      return {
        ok: false,
        message: `Update refused: version ${version} is older than this one (${ctx.running}); it installs only once you confirm.`,
        confirm: { version, running: ctx.running },
      };
    }
    if (!(await ctx.downloadThenInstall(picked)))
      return fail(ctx.view.message ?? `Version ${version} was not downloaded.`);
    return { ok: true, message: ctx.view.message ?? '' };
  }

  return { listVersions, installVersion };
}
