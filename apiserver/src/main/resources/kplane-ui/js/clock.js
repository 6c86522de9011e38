// The cluster clock (clocks.kplane.io/v1 Clock "cluster", docs/clock.md) in the page header: mode,
// cluster time ticking at the clock's rate, and a badge (offset / frozen / ×N). The object is read and
// then watched through the API with the page's own credentials, so a `kubectl-lite clock ...` shows up
// at once. Cluster time is computed as every component computes it:
//   clusterAnchor + (wall − wallAnchor) × rate
// with this browser's wall clock standing in for the API server's (same machine, or NTP-synchronised).
import { h, clear } from './dom.js';
import { getJson, watchPath } from './api.js';

const CLOCK = '/apis/kplane.io/v1/clocks/cluster';
const CLOCKS = '/apis/kplane.io/v1/clocks';

let status = null; // the Clock's status, or null before the first read / on clusters without a clock
const listeners = new Set();

function ms(iso) {
  // RFC 3339 with microseconds: Date.parse wants at most milliseconds everywhere.
  return Date.parse(String(iso).replace(/(\.\d{3})\d+/, '$1'));
}

/** Cluster time now, in epoch milliseconds (the browser's time when the cluster serves no clock). */
export function clusterNowMs() {
  if (!status || !status.wallAnchor || !status.clusterAnchor) return Date.now();
  return ms(status.clusterAnchor) + (Date.now() - ms(status.wallAnchor)) * Number(status.rate ?? 1);
}

export function clusterNowIso() {
  return new Date(clusterNowMs()).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Called with the new status whenever the clock changes. Returns an unsubscribe function. */
export function onClockChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function clockStatus() {
  return status;
}

function badge(st) {
  if (!st) return ['unknown', 'no cluster clock served'];
  const mode = st.mode || 'Real';
  if (mode === 'Frozen') return ['frozen', 'the cluster clock stands still'];
  if (mode === 'Rate') return [`×${st.rate}`, `${st.rate} cluster seconds per wall second`];
  if (mode === 'Offset') {
    const off = Math.round((ms(st.clusterAnchor) - ms(st.wallAnchor)) / 1000);
    return [`offset ${off < 0 ? '−' : '+'}${duration(Math.abs(off))}`, 'cluster time = wall time + a fixed offset'];
  }
  return ['real time', 'cluster time is wall time'];
}

export function duration(seconds) {
  const d = Math.floor(seconds / 86400);
  const hh = Math.floor((seconds % 86400) / 3600);
  const mm = Math.floor((seconds % 3600) / 60);
  const ss = seconds % 60;
  return (d ? d + 'd' : '') + (hh ? hh + 'h' : '') + (mm ? mm + 'm' : '') + (ss || (!d && !hh && !mm) ? ss + 's' : '');
}

/** Mounts the clock display into `el` (the page header) and keeps it live. */
export function mountClusterClock(el) {
  const time = h('span#cluster-time.mono', {}, '–');
  const mode = h('span#cluster-clock-badge.badge', {}, '…');
  clear(el).append(h('span.muted', {}, 'cluster time '), time, ' ', mode);
  function paint() {
    const [label, title] = badge(status);
    el.dataset.mode = status?.mode || 'unknown';
    el.dataset.rate = String(status?.rate ?? '');
    mode.textContent = label;
    el.title = title + ' (kubectl-lite clock; docs/clock.md)';
    mode.className = 'badge clock-' + (status?.mode || 'unknown').toLowerCase();
  }
  function tick() {
    // One text update per frame at most: cheap, and a rate-60 clock visibly runs.
    time.textContent = status ? new Date(clusterNowMs()).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC') : '–';
  }
  watchPath(CLOCKS, async () => {
    try {
      const obj = await getJson(CLOCK);
      status = obj.status || null;
      paint(); tick();
      listeners.forEach((fn) => fn(status));
      return obj.metadata?.resourceVersion;
    } catch (e) {
      if (e.status === 404) { status = null; paint(); tick(); }
      throw e;
    }
  }, (ev) => {
    if (ev.object?.metadata?.name !== 'cluster' || ev.type === 'DELETED') return;
    status = ev.object.status || null;
    paint(); tick();
    listeners.forEach((fn) => fn(status));
  });
  setInterval(tick, 250);
  paint();
}
