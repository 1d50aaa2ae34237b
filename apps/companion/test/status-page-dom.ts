import vm from 'node:vm';
import { STATUS_PAGE_SCRIPT } from '../src/bridge/status-page.js';

/** An element of the little DOM the status page's script needs: children, text, properties. */
export class FakeElement {
  children: (FakeElement | string)[] = [];
  attributes: Record<string, string> = {};
  [property: string]: unknown;

  constructor(readonly tagName: string) {}

  get textContent(): string {
    return this.children.map((c) => (typeof c === 'string' ? c : c.textContent)).join('');
  }

  set textContent(value: string) {
    this.children = [String(value)];
  }

  append(...nodes: (FakeElement | string)[]): void {
    this.children.push(...nodes.map((n) => (typeof n === 'string' ? n : n)));
  }

  replaceChildren(...nodes: (FakeElement | string)[]): void {
    this.children = [];
    this.append(...nodes);
  }

  addEventListener(): void {}

  setAttribute(name: string, value: string): void {
    this.attributes[name] = String(value);
  }

  /** Every element below this one, in document order. */
  descendants(): FakeElement[] {
    return this.children.flatMap((c) => (typeof c === 'string' ? [] : [c, ...c.descendants()]));
  }
}

/**
 * Runs the status page's own script against a status answer and returns the page's elements by
 * id: what a browser would show, without one (no request leaves the test).
 */
export function renderStatusPage(status: unknown): (id: string) => FakeElement {
  const byId = new Map<string, FakeElement>();
  const getElementById = (id: string) => {
    let element = byId.get(id);
    if (!element) byId.set(id, (element = new FakeElement('div')));
    return element;
  };
  const context = vm.createContext({
    document: { getElementById, createElement: (tag: string) => new FakeElement(tag.toUpperCase()) },
    fetch: () => new Promise(() => undefined),
    setInterval: () => 0,
  });
  vm.runInContext(STATUS_PAGE_SCRIPT, context);
  (context as { render: (s: unknown) => void }).render(status);
  return getElementById;
}
