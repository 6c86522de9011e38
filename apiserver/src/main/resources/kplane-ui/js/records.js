// How a lens record is shown: which lane it belongs to, its one-line headline, and the sync card.
import { h, clock, num } from './dom.js';

export const LANES = [
  { id: 'reflector', title: 'Watch', hint: 'reflector: list, watch events' },
  { id: 'fifo', title: 'FIFO', hint: 'DeltaFIFO: deltas per key, coalesced' },
  { id: 'indexer', title: 'Cache', hint: 'Pop: the delta leaves the FIFO, the indexer (cache) is updated, then the handlers run' },
  { id: 'handler', title: 'Handler', hint: 'event handlers: which key to enqueue' },
  { id: 'queue', title: 'Queue', hint: 'workqueue: add, add-after, rate-limited back-off' },
  { id: 'worker', title: 'Worker', hint: 'a worker takes the key (get), syncs, then done / forget; pause, held, step' },
  { id: 'expectations', title: 'Expect', hint: 'expectations: creates/deletes in flight' },
  { id: 'sync', title: 'Sync', hint: 'syncJob: saw → decided → wrote' },
];
const LANE_INDEX = Object.fromEntries(LANES.map((l, i) => [l.id, i]));

export function laneOf(rec) {
  // client-go's processDeltas: the popped delta updates the indexer before the handlers are called.
  if (rec.stage === 'fifo' && rec.type === 'pop') return 'indexer';
  // The queue's get/done/forget are the worker's side of the queue.
  if (rec.stage === 'queue' && ['get', 'done', 'forget'].includes(rec.type)) return 'worker';
  if (rec.stage in LANE_INDEX) return rec.stage;
  return 'sync'; // kubelet pod-worker decisions read like syncs
}

const HIDDEN_DETAIL = new Set(['key', 'resource', 'rv', 'type', 'eventType']);

function detailChips(detail) {
  if (!detail || typeof detail !== 'object') return [];
  return Object.entries(detail).filter(([k, v]) => !HIDDEN_DETAIL.has(k) && v != null && typeof v !== 'object')
    .slice(0, 5).map(([k, v]) => h('span.chip', {}, h('b', {}, k), ' ', String(v)));
}

export function headline(rec) {
  const d = rec.detail || {};
  const eventType = d.eventType || d.event || d.type;
  switch (rec.type) {
    case 'event': return eventType ? `${eventType}` : 'event';
    case 'add-after': return 'add-after';
    case 'add-rate-limited': return 'add-rate-limited';
    default: return rec.type || rec.stage;
  }
}

/** The small card of a non-sync record. */
export function recordCard(rec, echoOf) {
  const card = h('div.card.stage-' + laneOf(rec), { title: LANES[LANE_INDEX[laneOf(rec)]]?.hint || '' },
    h('div.card-head', {}, h('span.kind', {}, headline(rec)),
      rec.resource ? h('span.res', {}, rec.resource) : null,
      echoOf != null ? h('span.badge.echo', { title: 'this watch event is a write made by sync #' + echoOf }, '↩ sync #' + echoOf) : null),
    rec.key ? h('div.key', {}, rec.key) : null,
    h('div.chips', {}, rec.rv ? h('span.chip', {}, h('b', {}, 'rv'), ' ', rec.rv) : null,
      rec.type === 'add-after' && rec.detail?.dueAt ? h('span.chip.due', { dataset: { due: rec.detail.dueAt } }, 'due ' + clock(rec.detail.dueAt)) : null,
      detailChips(rec.detail)));
  return card;
}

function kv(obj) {
  if (!obj || typeof obj !== 'object') return [];
  return Object.entries(obj).map(([k, v]) => h('span.kv', {}, h('b', {}, k), ' ', typeof v === 'object' ? JSON.stringify(v) : String(v)));
}

/** The sync card: what the controller saw, what it decided, what it wrote. */
export function syncCard(rec) {
  const s = rec.sync || {};
  const writes = s.writes || [];
  const triggers = s.triggers || [];
  const events = s.events || [];
  return h('div.card.sync-card' + (s.error ? '.failed' : ''), {},
    h('div.card-head', {}, h('span.kind', {}, rec.stage === 'kubelet' ? 'pod worker' : 'sync'),
      h('span.key', {}, rec.key || ''),
      h('span.dur', {}, s.durationMs != null ? num(s.durationMs, 1) + ' ms' : '')),
    triggers.length ? h('div.sec', {}, h('span.label', {}, 'because'),
      triggers.slice(0, 6).map((t) => h('span.chip.trigger', {}, `${t.type} ${t.resource || ''} ${t.key || ''}${t.rv ? ' rv ' + t.rv : ''}`)),
      triggers.length > 6 ? h('span.muted', {}, ` +${triggers.length - 6} more`) : null) : null,
    s.saw && Object.keys(s.saw).length ? h('div.sec', {}, h('span.label', {}, 'saw'), kv(s.saw)) : null,
    h('div.sec.decided', {}, h('span.label', {}, 'decided'), h('span.decision', {}, s.decision || '—'),
      s.reason ? h('span.reason', {}, s.reason) : null),
    writes.length ? h('div.sec', {}, h('span.label', {}, 'wrote'),
      writes.map((w) => h('span.chip.write' + (w.error ? '.error' : ''), {},
        `${w.verb} ${w.resource} ${w.key || ''}`, w.rv ? ` → rv ${w.rv}` : '', w.error ? ` ✗ ${w.error}` : ''))) : null,
    events.length ? h('div.sec', {}, h('span.label', {}, 'events'),
      events.map((e) => h('span.chip.event' + (e.type === 'Warning' ? '.warning' : ''), {}, `${e.reason}: ${e.message}`))) : null,
    s.requeueAfterMs != null ? h('div.sec', {}, h('span.label', {}, 'requeue'), `after ${num(s.requeueAfterMs / 1000, 1)} s`) : null,
    s.error ? h('div.sec.err', {}, h('span.label', {}, 'error'), s.error) : null);
}
