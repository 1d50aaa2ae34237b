/**
 * OpenF1's query syntax (reference/external-apis.md §1.3, after `query_api/query_params.py`):
 * `field=value`, `field>value`, `>=`, `<`, `<=`, written literally or percent-encoded as a whole token;
 * a repeated field ORs its values, ranges on one field pair up into intervals; date-only values cover
 * whole UTC days; `session_key=latest` / `meeting_key=latest`.
 */
export type Operator = '=' | '>' | '>=' | '<' | '<=';

export type FilterValue = { kind: 'date'; ms: number } | { kind: 'latest' } | { kind: 'text'; text: string };

export interface Condition {
  field: string;
  op: Operator;
  value: FilterValue;
}

/** Per field, alternatives that are ORed; each alternative is a set of ANDed conditions. */
export type FieldFilters = Map<string, Condition[][]>;

export interface ParsedQuery {
  filters: FieldFilters;
  csv: boolean;
}

export type ParseResult = { ok: true; query: ParsedQuery } | { ok: false; error: string };

/** Checked in this order, as the real server does (`>=` before `=` before `>`). */
const OPERATORS: readonly Operator[] = ['>=', '<=', '=', '>', '<'];
const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Parses a date the way OpenF1 reads it: ISO 8601, `T` or space, no zone = UTC. */
export function parseOpenF1Date(text: string): number | null {
  if (!DATE_LIKE.test(text)) return null;
  let iso = text.replace(' ', 'T');
  if (DATE_ONLY.test(iso)) iso += 'T00:00:00';
  if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(iso.slice(10))) iso += 'Z';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

function decodeToken(token: string): string | null {
  try {
    return decodeURIComponent(token.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

function parseToken(token: string): { units: Condition[][] } | { error: string } {
  const op = OPERATORS.find((o) => token.includes(o));
  if (!op) return { error: `No valid operator found in \`${token}\`.` };
  const at = token.indexOf(op);
  const field = token.slice(0, at).trim().toLowerCase();
  let raw = token.slice(at + op.length);
  if (!field) return { error: `No field name in \`${token}\`.` };
  // A `+` of a time zone arrives as a space when the client did not encode it (the real server repairs it too).
  if (field.includes('date') && /\d{2}:\d{2}.* \d{2}:\d{2}$/.test(raw))
    raw = raw.replace(/ (\d{2}:\d{2})$/, '+$1');

  if ((field === 'session_key' || field === 'meeting_key') && raw === 'latest') {
    return { units: [[{ field, op, value: { kind: 'latest' } }]] };
  }
  if (field !== 'gmt_offset' && /^\d{4}-\d{2}-\d{2}/.test(raw)) {
    const ms = parseOpenF1Date(raw);
    if (ms === null) return { error: `Invalid date in \`${token}\`.` };
    if (!DATE_ONLY.test(raw)) return { units: [[{ field, op, value: { kind: 'date', ms } }]] };
    const day = (at: number): FilterValue => ({ kind: 'date', ms: at });
    switch (op) {
      case '>':
        return { units: [[{ field, op: '>=', value: day(ms + DAY_MS) }]] };
      case '<':
        return { units: [[{ field, op: '<', value: day(ms) }]] };
      case '>=':
        return { units: [[{ field, op: '>=', value: day(ms) }]] };
      case '<=':
        return { units: [[{ field, op: '<', value: day(ms + DAY_MS) }]] };
      case '=':
        return {
          units: [
            [
              { field, op: '>=', value: day(ms) },
              { field, op: '<', value: day(ms + DAY_MS) },
            ],
          ],
        };
    }
  }
  return { units: [[{ field, op, value: { kind: 'text', text: raw } }]] };
}

const isLower = (op: Operator): boolean => op === '>' || op === '>=';

/** Pairs lone bounds into intervals in the order given: `a>=4&a<=7&a>=10&a<=15` → [4,7] or [10,15]. */
function groupAlternatives(units: Condition[][]): Condition[][] {
  const alternatives: Condition[][] = [];
  let pending: Condition | null = null;
  for (const unit of units) {
    const single = unit.length === 1 ? unit[0] : undefined;
    if (!single || single.op === '=') {
      if (pending) alternatives.push([pending]);
      pending = null;
      alternatives.push(unit);
    } else if (pending && isLower(pending.op) !== isLower(single.op)) {
      alternatives.push([pending, single]);
      pending = null;
    } else {
      if (pending) alternatives.push([pending]);
      pending = single;
    }
  }
  if (pending) alternatives.push([pending]);
  return alternatives;
}

/** Parses a raw query string (the part after `?`, still percent-encoded). */
export function parseFilterQuery(rawQuery: string): ParseResult {
  const units = new Map<string, Condition[][]>();
  let csv = false;
  for (const piece of rawQuery.split('&')) {
    if (!piece) continue;
    const token = decodeToken(piece);
    if (token === null) return { ok: false, error: `Malformed query parameter \`${piece}\`.` };
    if (/^csv=/i.test(token)) {
      csv = token.slice(4).toLowerCase() === 'true';
      continue;
    }
    const parsed = parseToken(token);
    if ('error' in parsed) return { ok: false, error: parsed.error };
    for (const unit of parsed.units) {
      const field = unit[0]?.field ?? '';
      units.set(field, [...(units.get(field) ?? []), unit]);
    }
  }
  const filters: FieldFilters = new Map();
  for (const [field, list] of units) filters.set(field, groupAlternatives(list));
  return { ok: true, query: { filters, csv } };
}

export interface LatestKeys {
  session_key: number | null;
  meeting_key: number | null;
}

function compare(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function holds(op: Operator, order: number): boolean {
  switch (op) {
    case '=':
      return order === 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
  }
}

function matchCondition(rowValue: unknown, cond: Condition, latest: LatestKeys): boolean {
  const { value, op, field } = cond;
  if (value.kind === 'latest') {
    const key = field === 'session_key' ? latest.session_key : latest.meeting_key;
    return key !== null && typeof rowValue === 'number' && holds(op, compare(rowValue, key));
  }
  if (value.kind === 'date') {
    if (typeof rowValue !== 'string') return false;
    const ms = parseOpenF1Date(rowValue);
    return ms !== null && holds(op, compare(ms, value.ms));
  }
  const text = value.text;
  if (rowValue === null || rowValue === undefined) return op === '=' && /^(null|none)$/i.test(text);
  if (typeof rowValue === 'number') {
    const n = Number(text);
    return text.trim() !== '' && !Number.isNaN(n) && holds(op, compare(rowValue, n));
  }
  if (typeof rowValue === 'boolean') {
    const lowered = text.toLowerCase();
    if (lowered !== 'true' && lowered !== 'false') return false;
    return holds(op, compare(Number(rowValue), Number(lowered === 'true')));
  }
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- what is left are strings (and arrays, compared as their text)
  return holds(op, compare(String(rowValue), text));
}

/** True when the row satisfies every field's filter (some alternative of it, all its conditions). */
export function matchesFilters(row: object, filters: FieldFilters, latest: LatestKeys): boolean {
  const record = row as Record<string, unknown>;
  for (const [field, alternatives] of filters) {
    if (!(field in record)) return false;
    const value = record[field];
    if (!alternatives.some((conds) => conds.every((c) => matchCondition(value, c, latest)))) return false;
  }
  return true;
}

export function usesLatest(filters: FieldFilters): boolean {
  for (const alternatives of filters.values()) {
    if (alternatives.some((conds) => conds.some((c) => c.value.kind === 'latest'))) return true;
  }
  return false;
}
