import type { DrivenProvider } from './lights-context';
import type { LightsEngineOptions } from './lights-engine-options';
import type { createProviderStates, ProviderStores } from './provider-states';

type ProviderStates = ReturnType<typeof createProviderStates>;

/**
 * What the lights engine shares with each provider's connection: its options, its stores, its
 * error toasts and its epoch (bumped on a user switch, so an answer for the previous user is
 * ignored).
 */
export interface EngineContext {
  readonly options: LightsEngineOptions;
  readonly providers: ProviderStores;
  epoch(): number;
  update: ProviderStates['update'];
  /** The selected lights a flag reaches now (those being read, added mid-session, wait). */
  selectedIds(provider: DrivenProvider): string[];
  toastError(message: string): void;
}
