// The lane view: one controller's machinery, following one key from watch event to sync and back.
import { h, clear, clock, num } from './dom.js';
import { lens, follow, kube } from './api.js';
import { LANES, laneOf, recordCard, syncCard } from './records.js';
import { setSampling } from './sampling.js';

const MAX_ROWS = 400;            // DOM rows kept; older rows scroll away
const RENDER_PER_SECOND = 60;    // above this, records are sampled (and the page says so)

const RESOURCE_OF_CONTROLLER = { job: 'jobs', cronjob: 'cronjobs' };

export function laneView(root, component, controllerName, key) {
  let stopStream = null;
  let disposed = false;
  let paused = false;
  let timeOffsetMs = 0;           // cluster time − browser time, from the snapshot's "now"
  let queueName = null;           // the controller's workqueue (upstream's name: gc, ttl differ from the controller's)
  let pending = [];
  let frame = 0;
  const related = new Set(key ? [key] : []);
  const writes = new Map();       // "resource key rv" → sync seq, to mark writes coming back (bounded)
  const MAX_WRITES = 5000;
  const openGets = new Map();     // key → the newest drawn queue `get` row not yet matched by its sync
  const rate = { windowStart: performance.now(), count: 0, perSecond: 0, kept: 0 };
  let sampleEvery = 1;
  let seen = 0;

  const keyInput = h('input#follow-key', { value: key || '', placeholder: 'namespace/name', spellcheck: 'false' });
  const status = h('div#follow-status.follow-status', {}, key ? 'loading…' : 'following every key');
  const pauseBtn = h('button#pause', { onclick: () => control('pause') }, 'Pause');
  const resumeBtn = h('button#resume', { onclick: () => control('resume') }, 'Resume');
  const stepBtn = h('button#step.primary', { onclick: () => control('step'), title: 'release exactly one queue item to one worker' }, 'Step ▸');
  const pausedNote = h('div#paused-note.paused-note', { hidden: true });
  const counters = h('div#counters.counters');
  const queue = h('div#queue.queue');
  const rows = h('div#lanes-body.lanes-body');
  const header = h('div.lanes-head', {}, h('div.time', {}, 'time'),
    LANES.map((l) => h('div.lane-title.stage-' + l.id, { title: l.hint }, l.title)));

  clear(root).append(
    h('section.toolbar', {},
      h('div.who', {}, h('h1', {}, controllerName, h('span.muted', {}, ' controller in ', component))),
      h('form.follow', { onsubmit: (e) => { e.preventDefault(); location.hash = `#/lanes/${component}/${controllerName}?key=${encodeURIComponent(keyInput.value.trim())}`; } },
        h('label', { for: 'follow-key' }, 'Follow key'), keyInput, h('button', {}, 'Follow'),
        key ? h('a.button', { href: `#/lanes/${component}/${controllerName}` }, 'All keys') : null),
      status,
      h('div.controls', {}, pauseBtn, resumeBtn, stepBtn)),
    pausedNote,
    counters,
    h('section.queue-wrap', {}, h('h2', {}, 'Queue ', h('span.muted', {}, 'waiting · delayed (countdown) · processing')), queue),
    h('section.lanes', {}, header, rows));

  // ---- controls ----
  async function control(action) {
    try {
      const r = await lens.control(component, controllerName, action);
      paused = !!r.paused;
      renderPaused(r.stepsPending || 0);
      refreshSnapshot();
    } catch (e) {
      pausedNote.hidden = false;
      pausedNote.textContent = `${action} failed: ${e.message}`;
    }
  }

  function renderPaused(waiting) {
    pauseBtn.disabled = paused;
    resumeBtn.disabled = !paused;
    stepBtn.disabled = !paused;
    pausedNote.hidden = !paused;
    pausedNote.dataset.paused = String(paused);
    if (paused) pausedNote.textContent = `Paused: workers take nothing from the queue (${waiting} waiting). “Step” releases one item to one worker.`;
  }

  // ---- snapshot: counters and queue items ----
  let snapshotTimer = 0;
  async function refreshSnapshot() {
    try {
      const snap = await lens.snapshot(component);
      if (disposed) return;
      timeOffsetMs = new Date(snap.now).getTime() - Date.now();
      const c = (snap.controllers || []).find((x) => x.name === controllerName);
      if (c) {
        queueName = c.queue;
        paused = !!c.paused;
        renderCounters(c.counters || {});
        renderQueue(c.queueItems || []);
        renderPaused((c.queueItems || []).filter((i) => i.state === 'waiting').length);
      }
      setSampling('server', snap.sampling ? `${component} is sampling under load: some watch, FIFO, handler and queue records are not kept (syncs always are).` : null);
      if (stopStream == null) {
        // First snapshot: show its recent records, then follow the stream from there.
        for (const rec of snap.records || []) accept(rec);
        stopStream = follow(component, snap.seq, fromStream,
          (s) => { document.getElementById('conn').textContent = s === 'live' ? '● live' : '○ reconnecting'; },
          (on) => setSampling('server', on ? `${component} is sampling under load: some watch, FIFO, handler and queue records are not kept (syncs always are).` : null),
          prefilter);
      }
    } catch (e) {
      document.getElementById('conn').textContent = '○ ' + e.message;
    }
    // Each snapshot carries the component's last 500 records besides the counters: while the page
    // samples, poll it less often (the stream carries the records anyway).
    if (!disposed) snapshotTimer = setTimeout(refreshSnapshot, sampleEvery > 1 ? 3000 : 1000);
  }

  function tile(name, label, value, unit = '') {
    return h('div.tile', { dataset: { counter: name } }, h('div.v', {}, value, unit ? h('small', {}, unit) : null), h('div.l', {}, label));
  }

  function renderCounters(k) {
    const cache = k.cacheObjects ? Object.entries(k.cacheObjects).map(([r, n]) => `${r} ${n}`).join(' · ') : '–';
    clear(counters).append(
      tile('depth', 'queue depth', num(k.depth)),
      tile('delayed', 'delayed', num(k.delayed)),
      tile('adds', 'adds', num(k.adds)),
      tile('retries', 'retries', num(k.retries)),
      tile('inFlight', 'in flight', num(k.inFlight)),
      tile('syncs', 'syncs', num(k.syncs)),
      tile('syncErrors', 'sync errors', num(k.syncErrors)),
      tile('syncP50Ms', 'sync p50', num(k.syncP50Ms, 1), 'ms'),
      tile('syncP99Ms', 'sync p99', num(k.syncP99Ms, 1), 'ms'),
      tile('pendingExpectations', 'pending expectations', num(k.pendingExpectations)),
      tile('fifoDepth', 'FIFO depth', num(k.fifoDepth)),
      h('div.tile.wide', { dataset: { counter: 'cacheObjects' } }, h('div.v.small', {}, cache), h('div.l', {}, 'cache objects')));
  }

  function renderQueue(items) {
    clear(queue);
    if (!items.length) { queue.append(h('span.muted', {}, 'empty')); return; }
    for (const it of items.slice(0, 60)) {
      const mine = key && it.key === key;
      queue.append(h('div.qitem.' + it.state + (mine ? '.mine' : ''), { dataset: { key: it.key, state: it.state } },
        h('span.qkey', {}, it.key), h('span.qstate', {}, it.held ? 'held by a paused worker' : it.state),
        it.state === 'delayed' && it.dueAt ? h('span.countdown', { dataset: { due: it.dueAt } }, countdown(it.dueAt)) : null,
        it.triggers > 1 ? h('span.triggers', { title: 'events coalesced into this one queue item' }, `${it.triggers} triggers`) : null,
        it.retries ? h('span.retries', { title: 'rate-limited requeues of this key' }, `retry ${it.retries}`) : null));
    }
    if (items.length > 60) queue.append(h('span.muted', {}, `+${items.length - 60} more`));
  }

  function countdown(dueAt) {
    const left = new Date(dueAt).getTime() - (Date.now() + timeOffsetMs);
    return left <= 0 ? 'due' : `in ${(left / 1000).toFixed(1)} s`;
  }
  const ticker = setInterval(() => {
    for (const el of root.querySelectorAll('[data-due]')) {
      if (el.classList.contains('countdown')) el.textContent = countdown(el.dataset.due);
    }
    // The burst is over when no record arrived for two seconds: draw everything again.
    if (sampleEvery > 1 && performance.now() - rate.windowStart > 2000) {
      sampleEvery = 1;
      rate.count = 0;
      rate.windowStart = performance.now();
      setSampling('client', null);
    }
  }, 200);

  // ---- followed object's current state ----
  let statusTimer = 0;
  async function refreshStatus() {
    const resource = RESOURCE_OF_CONTROLLER[controllerName];
    if (!key || !resource || !key.includes('/')) return;
    const [ns, name] = key.split('/');
    try {
      const obj = await kube.get(resource, ns, name);
      showStatus(resource, obj);
    } catch (e) {
      status.textContent = e.status === 404 ? `${key}: not found (yet)` : e.message;
      status.dataset.phase = 'Unknown';
    }
    if (!disposed) statusTimer = setTimeout(refreshStatus, 1000);
  }

  function showStatus(resource, obj) {
    const st = obj.status || {};
    const cond = (st.conditions || []).find((c) => c.status === 'True' && ['Complete', 'Failed', 'Suspended'].includes(c.type));
    const phase = cond ? cond.type : (resource === 'jobs' ? 'Running' : 'Active');
    status.dataset.phase = phase;
    clear(status).append(
      h('a', { href: `#/object/${resource}/${obj.metadata.namespace}/${obj.metadata.name}` }, obj.kind, ' ', obj.metadata.name),
      h('span.phase.phase-' + phase, {}, phase),
      resource === 'jobs' ? h('span.muted', {}, ` active ${st.active || 0} · succeeded ${st.succeeded || 0}/${obj.spec.completions ?? 1} · failed ${st.failed || 0}`) : null);
  }

  // ---- records → rows ----
  function isRelated(rec) {
    // queue and worker records carry the queue's name, sync records the controller's
    if (rec.controller && rec.controller !== controllerName && rec.controller !== queueName && rec.stage !== 'reflector') return false;
    if (!key) return true;
    if (related.has(rec.key)) return true;
    if (rec.key && rec.key.startsWith(key + '-')) return true; // the Job's pods: <job>-<suffix>
    const d = rec.detail || {};
    if (d.owner === key || d.enqueued === key || d.queueKey === key) return true;
    return false;
  }

  /** Counts an arriving record and says whether the page draws it (sampling under load). */
  function arrive() {
    seen++;
    rate.count++;
    const t = performance.now();
    if (t - rate.windowStart >= 1000) {
      rate.perSecond = rate.count * 1000 / (t - rate.windowStart);
      rate.windowStart = t;
      rate.count = 0;
      sampleEvery = rate.perSecond > RENDER_PER_SECOND ? Math.ceil(rate.perSecond / RENDER_PER_SECOND) : 1;
      setSampling('client', sampleEvery > 1
        ? `Sampling: ${num(rate.perSecond)} records/s arrive, showing about 1 in ${sampleEvery}.` + (key ? ` Every record of ${key} is shown.` : ' Follow a key to see every step of one object.')
        : null);
    }
  }

  /**
   * The stream's records are judged on their text before they are parsed: following a key, only those
   * naming it can be related; otherwise, while sampling, only sync and expectations records and one in
   * N of the rest are parsed at all.
   */
  function prefilter(data) {
    arrive();
    if (key) return data.includes(key);
    if (sampleEvery <= 1) return true;
    return seen % sampleEvery === 0 || data.includes('"stage":"sync"') || data.includes('"stage":"expectations"');
  }

  function fromStream(rec) {
    take(rec, true);
  }

  function accept(rec) {
    arrive();
    take(rec, false);
  }

  function take(rec, sampled) {
    if (!isRelated(rec)) return;
    if (rec.stage === 'sync' && rec.key === key) {
      // the garbage collector's queue holds uids: its sync names the object and keeps the queue's key,
      // so the key's later queue and worker records join the followed object's lanes
      if (rec.detail?.queueKey) related.add(rec.detail.queueKey);
      for (const w of rec.sync?.writes || []) {
        if (w.key) related.add(w.key);
        if (w.rv) writes.set(`${w.resource} ${w.key} ${w.rv}`, rec.seq);
      }
      // Maps keep insertion order: drop the oldest beyond the bound (a long session must not grow).
      for (const k of writes.keys()) { if (writes.size <= MAX_WRITES) break; writes.delete(k); }
    }
    const important = rec.stage === 'sync' || rec.stage === 'expectations';
    if (!sampled && !key && !important && sampleEvery > 1 && seen % sampleEvery !== 0) return;
    pending.push(rec);
    if (pending.length > MAX_ROWS) pending = pending.slice(-MAX_ROWS);
    scheduleFlush();
  }

  // Drawing: once per animation frame, but while sampling at most once per
  // FLUSH_INTERVAL_SAMPLING_MS and only the newest rows of each batch (the older ones would scroll out of the capped list
  // in the same frame): every flush re-lays out the list, and back-to-back flushes kept the main thread busy.
  const FLUSH_INTERVAL_SAMPLING_MS = 250;
  const ROWS_PER_FLUSH_SAMPLING = 80;
  let lastFlush = 0;
  let flushTimer = 0;
  function scheduleFlush() {
    if (frame || flushTimer) return;
    const wait = sampleEvery > 1 ? FLUSH_INTERVAL_SAMPLING_MS - (performance.now() - lastFlush) : 0;
    if (wait > 0) flushTimer = setTimeout(() => { flushTimer = 0; frame = requestAnimationFrame(flush); }, wait);
    else frame = requestAnimationFrame(flush);
  }

  function flush() {
    frame = 0;
    lastFlush = performance.now();
    if (sampleEvery > 1 && pending.length > ROWS_PER_FLUSH_SAMPLING) pending = pending.slice(-ROWS_PER_FLUSH_SAMPLING);
    const stick = rows.scrollHeight - rows.scrollTop - rows.clientHeight < 80;
    const batch = pending;
    pending = [];
    const fragment = document.createDocumentFragment();
    for (const rec of batch) {
      // A sync record is emitted when the sync ends, but its writes came back as watch events while
      // it ran: the card goes where the sync began, right after the worker's `get` of that key.
      if (rec.sync) {
        rows.append(fragment);
        const start = startOf(rec);
        if (start) start.after(row(rec)); else rows.append(row(rec));
      } else {
        fragment.append(row(rec));
      }
    }
    rows.append(fragment);
    while (rows.childElementCount > MAX_ROWS) rows.firstElementChild.remove();
    if (stick) rows.scrollTop = rows.scrollHeight;
  }

  function startOf(rec) {
    // A map lookup instead of a selector query over every row per sync (syncs are never sampled, so
    // a busy controller made this the page's hottest path).
    const get = openGets.get(rec.key);
    if (!get) return null;
    openGets.delete(rec.key);
    if (!get.isConnected) return null; // scrolled out of the capped DOM
    get.dataset.synced = String(rec.seq);
    return get;
  }

  function row(rec) {
    const lane = laneOf(rec);
    const col = LANES.findIndex((l) => l.id === lane) + 2;
    const echo = rec.stage === 'reflector' ? writes.get(`${rec.resource} ${rec.key} ${rec.rv}`) : undefined;
    const card = rec.sync ? syncCard(rec) : recordCard(rec, echo);
    const r = h('div.lrow' + (rec.key === key ? '.mine' : ''), {
      dataset: { seq: rec.seq, stage: rec.stage, type: rec.type || '', key: rec.key || '', decision: rec.sync?.decision || '', resource: rec.resource || '' },
    }, h('div.time', {}, clock(rec.time)), card);
    card.style.gridColumn = String(col);
    if (rec.stage === 'queue' && rec.type === 'get' && rec.key) openGets.set(rec.key, r);
    return r;
  }

  refreshSnapshot();
  refreshStatus();

  return () => {
    disposed = true;
    clearTimeout(snapshotTimer);
    clearTimeout(statusTimer);
    clearInterval(ticker);
    if (frame) cancelAnimationFrame(frame);
    clearTimeout(flushTimer);
    if (stopStream) stopStream();
    setSampling('client', null);
    setSampling('server', null);
  };
}
