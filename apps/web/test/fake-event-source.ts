/**
 * A stand-in for the browser's EventSource (jsdom has none), for tests: it records the URLs it is
 * opened with and lets a test open it, send events and fail it, as the server's stream would.
 */
export class FakeEventSource {
  static instances: FakeEventSource[] = [];

  static reset(): void {
    FakeEventSource.instances = [];
  }

  static latest(): FakeEventSource {
    const last = FakeEventSource.instances.at(-1);
    if (!last) throw new Error('no EventSource was opened');
    return last;
  }

  readonly url: string;
  closed = false;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  private readonly listeners = new Map<string, ((event: Event) => void)[]>();

  constructor(url: string) {
    this.url = url;
    FakeEventSource.instances.push(this);
  }

  get params(): URLSearchParams {
    return new URL(this.url, 'http://localhost').searchParams;
  }

  addEventListener(type: string, listener: (event: Event) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  removeEventListener(type: string, listener: (event: Event) => void): void {
    this.listeners.set(
      type,
      (this.listeners.get(type) ?? []).filter((l) => l !== listener),
    );
  }

  close(): void {
    this.closed = true;
  }

  open(): void {
    this.onopen?.(new Event('open'));
  }

  emit(
    type: 'flag' | 'status' | 'preferences' | 'devices' | 'test' | 'heartbeat',
    data: unknown,
    id?: number,
  ): void {
    const event = new MessageEvent(type, {
      data: JSON.stringify(data),
      lastEventId: id === undefined ? '' : String(id),
    });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }

  fail(): void {
    this.onerror?.(new Event('error'));
  }
}

export function asEventSource(create: (url: string) => FakeEventSource): (url: string) => EventSource {
  return create as unknown as (url: string) => EventSource;
}
