import type { FlagEvent, StatusEventData } from '@flaglight/core';

export type { FlagEvent, FlagEventData, StatusEventData, UpstreamStatus } from '@flaglight/core';

export type BusMessage = { type: 'flag'; event: FlagEvent } | { type: 'status'; status: StatusEventData };
