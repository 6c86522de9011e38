// A CronJob's timeline on its object page: the schedule times (past and the next few, computed by the
// API server with the code `kubectl-lite cronjob next` uses), what the CronJob controller did at each
// (a Job created, linked; skipped and why; missed its deadline), and the next run counting down in
// cluster time. What happened is read from the CronJob controller's sync records (the same records
// `kubectl-lite why` reads; docs/lens.md "CronJob sync records"): no second bookkeeping. Records are
// bounded per object (the last syncs) and written when a sync ends, so a tick whose record has rolled
// off (or is not written yet) still shows its Job when the Job exists (its
// batch.kubernetes.io/cronjob-scheduled-timestamp annotation), marked as such (data-source="job").
import { h, clear } from './dom.js';
import { cronTicks } from './api.js';
import { clusterNowMs, clusterNowIso, duration } from './clock.js';

const SCHEDULED = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** What the records and Jobs say about each scheduled time (ISO second string → outcome). */
export function outcomes(cronJob, records, jobs) {
  const byTime = new Map();
  const sorted = [...records].filter((r) => r.sync && r.controller === 'cronjob')
    .sort((a, b) => String(a.time).localeCompare(String(b.time)));
  for (const rec of sorted) {
    const s = rec.sync;
    const t = s.saw?.scheduledTime;
    if (!t) continue;
    const decision = String(s.decision || '');
    const prev = byTime.get(t);
    let o = null;
    if (decision.includes('created') || decision.includes('replaced')) {
      o = { state: 'created', job: s.saw.job, reason: s.reason, decision, missed: s.saw.missedSchedules, seq: rec.seq };
    } else if (decision.includes('skipped')) {
      o = { state: 'skipped', reason: s.reason, why: /^JobAlreadyActive/.test(s.reason || '') ? 'JobAlreadyActive' : 'skipped', seq: rec.seq };
    } else if (decision.includes('missed')) {
      o = { state: 'missed', reason: s.reason, why: 'missed start deadline', seq: rec.seq };
    }
    // A later sync may run a tick skipped before (Forbid: the prior Job finished): created wins.
    if (o && !(prev && prev.state === 'created' && o.state !== 'created')) byTime.set(t, o);
  }
  for (const job of jobs) {
    const t = job.metadata.annotations?.[SCHEDULED];
    const owned = (job.metadata.ownerReferences || []).some((r) => r.uid === cronJob.metadata.uid);
    if (!t || !owned) continue;
    const key = new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const prev = byTime.get(key);
    if (!prev || prev.state !== 'created') {
      byTime.set(key, { state: 'created', job: job.metadata.name, reason: 'the Job exists; its sync record is not kept any more, or not written yet', fromJob: true });
    }
  }
  return byTime;
}

/** Renders the timeline into `el`; `records` are the sync records found for this CronJob. */
export async function renderTimeline(el, cronJob, records, jobs) {
  const now = clusterNowIso();
  let ticks;
  try {
    ticks = await cronTicks(cronJob, now, 12, 5);
  } catch (e) {
    clear(el).append(h('h2', {}, 'Timeline'), h('p.muted', {}, e.message));
    return;
  }
  const seen = outcomes(cronJob, records, jobs);
  const rows = [];
  const pastTimes = new Set(ticks.past.map((t) => t.time));
  // Outcomes recorded for times outside the window (older, or beyond the first 12) still show.
  for (const [time, o] of seen) {
    if (!pastTimes.has(time) && Date.parse(time) <= clusterNowMs()) {
      rows.push({ time, local: time.replace('T', ' ').replace('Z', ' UTC'), job: o.job, outcome: o });
    }
  }
  for (const t of ticks.past) rows.push({ ...t, outcome: seen.get(t.time) });
  rows.sort((a, b) => a.time.localeCompare(b.time));
  const nowMs = clusterNowMs();
  const ns = cronJob.metadata.namespace;
  const items = rows.slice(-16).map((t) => {
    const o = t.outcome;
    const state = o ? o.state : (cronJob.spec.suspend ? 'suspended' : 'none');
    const label = o?.state === 'created' ? h('span', {}, 'created ', h('a.mono', { href: `#/object/jobs/${ns}/${o.job}` }, o.job),
      o.missed ? h('span.badge.warn', {}, typeof o.missed !== 'number' || o.missed > 100 ? `TooManyMissedTimes (${o.missed} missed)` : `${o.missed} times passed, latest ran`) : null,
      o.decision === 'replaced' ? h('span.badge', {}, 'replaced') : null,
      o.fromJob ? h('span.muted', {}, ' (seen from the Job: its sync record is not kept any more, or not written yet)') : null)
      : o?.state === 'skipped' ? h('span', {}, 'skipped: ', h('b', {}, o.why))
      : o?.state === 'missed' ? h('span', {}, 'skipped: ', h('b', {}, o.why))
      : h('span.muted', {}, state === 'suspended' ? 'not run (suspended)' : 'no Job (not run: passed without a sync, e.g. inside a jump, or not yet synced)');
    return h('li.tick.tick-' + state, { dataset: { state, time: t.time, job: o?.job || '', source: o ? (o.fromJob ? 'job' : 'record') : '' }, title: o?.reason || '' },
      h('span.tick-dot', {}), h('span.tick-time.mono', {}, t.local), h('span.tick-what', {}, label));
  });
  const next = ticks.next.map((t, i) => h('li.tick.tick-next', { dataset: { state: 'next', time: t.time, job: t.job } },
    h('span.tick-dot', {}), h('span.tick-time.mono', {}, t.local),
    h('span.tick-what.muted', {}, i === 0 ? `next: ${t.job} in ${duration(Math.max(0, Math.round((Date.parse(t.time) - nowMs) / 1000)))} (cluster time)` : t.job)));
  clear(el).append(h('h2', {}, 'Timeline ', h('span.muted', {}, `${cronJob.spec.schedule} · ${ticks.zone} · from the CronJob controller's sync records`)),
    h('ol#cronjob-timeline.timeline', {}, items, h('li.tick.tick-now', { dataset: { state: 'now', time: now } },
      h('span.tick-dot', {}), h('span.tick-time.mono', {}, now.replace('T', ' ').replace('Z', ' UTC')), h('b', {}, 'now')), next));
}
