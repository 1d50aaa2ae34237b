/** Start-up again after the runs: two more of what was measured, two of the sources when that was the executable. */
import { stop } from '../shared/processes.js';
import { startCompanion } from './companion-process.js';
import { type Rig } from './setup.js';

export interface Startups {
  /** The rig's own start-up first. */
  measured: number[];
  /** Empty when the sources were what was measured. */
  sources: number[];
}

export async function measureStartups(rig: Rig): Promise<Startups> {
  const measured = [rig.companion.startupMs];
  await stop(rig.companion.child);
  for (let i = 0; i < 2; i += 1) {
    const again = await startCompanion(rig.launch, rig.base, false);
    measured.push(again.startupMs);
    await stop(again.child);
  }
  const sources: number[] = [];
  if (rig.launch.kind === 'executable')
    for (let i = 0; i < 2; i += 1) {
      const again = await startCompanion(rig.sources, rig.base, false);
      sources.push(again.startupMs);
      await stop(again.child);
    }
  return { measured, sources };
}
