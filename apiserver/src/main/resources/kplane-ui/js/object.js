// The object page: a Job, CronJob or Pod as it is now, its owner tree, its events, and the syncs that touched it.
import { h, clear, age, clock } from './dom.js';
import { kube, lens, KINDS, RESOURCE_OF_KIND } from './api.js';
import { syncCard } from './records.js';
import { renderTimeline } from './timeline.js';
import { clusterNowMs } from './clock.js';

export function objectView(root, resource, ns, name) {
  let disposed = false;
  let timer = 0;
  const state = h('section#object-state.panel');
  const tree = h('section#owner-tree.panel');
  const events = h('section#object-events.panel');
  const syncs = h('section#object-syncs.panel');
  const timeline = resource === 'cronjobs' ? h('section#object-timeline.panel') : null;
  clear(root).append(
    h('section.toolbar', {}, h('div.who', {}, h('h1', {}, KINDS[resource] || resource, ' ', h('span.mono', {}, `${ns}/${name}`))),
      followLink(resource, ns, name)),
    timeline,
    h('div.object-grid', {}, h('div', {}, state, tree), h('div', {}, events)), syncs);

  async function refresh() {
    try {
      const obj = await kube.get(resource, ns, name);
      renderState(obj);
      await renderTree(obj);
      await renderEvents(obj);
      const found = await renderSyncs(obj);
      if (timeline) {
        const jobs = await kube.list('jobs', ns);
        await renderTimeline(timeline, obj, found, jobs.items || []);
      }
    } catch (e) {
      clear(state).append(h('h2', {}, 'Current state'), h('p.muted', {}, e.status === 404 ? `${KINDS[resource]} ${ns}/${name} does not exist (any more).` : e.message));
    }
    if (!disposed) timer = setTimeout(refresh, 2000);
  }

  function renderState(obj) {
    const st = obj.status || {};
    const rows = [['created', `${age(obj.metadata.creationTimestamp, clusterNowMs())} ago (cluster time)`], ['uid', obj.metadata.uid], ['resourceVersion', obj.metadata.resourceVersion]];
    if (resource === 'jobs') {
      rows.push(['completions', `${st.succeeded || 0}/${obj.spec.completions ?? 1} (parallelism ${obj.spec.parallelism ?? 1})`],
        ['active / failed', `${st.active || 0} / ${st.failed || 0}`],
        ['backoffLimit', obj.spec.backoffLimit ?? 6],
        ['restartPolicy', obj.spec.template?.spec?.restartPolicy]);
    } else if (resource === 'cronjobs') {
      rows.push(['schedule', obj.spec.schedule], ['concurrencyPolicy', obj.spec.concurrencyPolicy || 'Allow'],
        ['suspend', String(!!obj.spec.suspend)], ['lastScheduleTime', st.lastScheduleTime || '–'],
        ['active', (st.active || []).map((r) => r.name).join(', ') || '–']);
    } else if (resource === 'pods') {
      const restarts = (st.containerStatuses || []).reduce((n, c) => n + (c.restartCount || 0), 0);
      rows.push(['phase', st.phase], ['node', obj.spec.nodeName || '–'], ['restarts', restarts],
        ['restartPolicy', obj.spec.restartPolicy]);
    }
    const conds = (st.conditions || []).filter((c) => c.status === 'True');
    clear(state).append(h('h2', {}, 'Current state'),
      h('div.conds', {}, conds.length ? conds.map((c) => h('span.phase.phase-' + c.type, { dataset: { condition: c.type } }, c.type, c.reason ? h('small', {}, ' ' + c.reason) : null)) : h('span.muted', {}, 'no true conditions')),
      h('table.kv', {}, rows.map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v == null ? '–' : String(v))))));
  }

  async function renderTree(obj) {
    // Walk up the controller owner references, then down again: CronJob → Jobs → Pods.
    let top = obj;
    for (let i = 0; i < 3; i++) {
      const ref = (top.metadata.ownerReferences || []).find((r) => r.controller) || (top.metadata.ownerReferences || [])[0];
      const res = ref && RESOURCE_OF_KIND[ref.kind];
      if (!res) break;
      try { top = await kube.get(res, ns, ref.name); } catch (e) { break; }
    }
    const [jobs, pods] = await Promise.all([kube.list('jobs', ns), kube.list('pods', ns)]);
    const childrenOf = (uid, list) => (list.items || []).filter((o) => (o.metadata.ownerReferences || []).some((r) => r.uid === uid));
    function node(o, res) {
      const kids = res === 'cronjobs' ? childrenOf(o.metadata.uid, jobs).map((j) => node(j, 'jobs'))
        : res === 'jobs' ? childrenOf(o.metadata.uid, pods).map((p) => node(p, 'pods')) : [];
      const here = o.metadata.uid === obj.metadata.uid;
      return h('li', {}, h('a' + (here ? '.here' : ''), { href: `#/object/${res}/${ns}/${o.metadata.name}` }, o.kind || KINDS[res], ' ', o.metadata.name),
        ' ', h('span.muted', {}, summary(o, res)), kids.length ? h('ul', {}, kids) : null);
    }
    clear(tree).append(h('h2', {}, 'Owner tree'), h('ul.tree', {}, node(top, RESOURCE_OF_KIND[top.kind] || resource)));
  }

  async function renderEvents(obj) {
    const list = await kube.list('events', ns);
    const mine = (list.items || []).filter((e) => e.involvedObject && (e.involvedObject.uid === obj.metadata.uid
      || (e.involvedObject.name === name && e.involvedObject.kind === obj.kind)))
      .sort((a, b) => String(a.lastTimestamp || a.eventTime || '').localeCompare(String(b.lastTimestamp || b.eventTime || '')));
    clear(events).append(h('h2', {}, 'Events'), mine.length ? h('table.events', {},
      h('tr', {}, h('th', {}, 'type'), h('th', {}, 'reason'), h('th', {}, 'age'), h('th', {}, 'from'), h('th', {}, 'message')),
      mine.slice(-30).map((e) => h('tr' + (e.type === 'Warning' ? '.warning' : ''), {}, h('td', {}, e.type), h('td', {}, e.reason),
        h('td', {}, age(e.lastTimestamp || e.eventTime, clusterNowMs())), h('td', {}, e.source?.component || e.reportingComponent || ''), h('td', {}, e.message))))
      : h('p.muted', {}, 'no events'));
  }

  async function renderSyncs(obj) {
    // Syncs still in the components' ring buffers, plus persisted records when the cluster serves them.
    const key = `${ns}/${name}`;
    const found = [];
    const { components } = await lens.components().catch(() => ({ components: [] }));
    // Each component keeps the last syncs per object even after its ring buffer moved on.
    const perComponent = await Promise.all(components.filter((c) => !c.stale)
      .map((c) => lens.objectSyncs(c.name, ns, name).then((r) => r.syncs || []).catch(() => [])));
    const snaps = [{ records: perComponent.flat() }];
    for (const snap of snaps) {
      for (const rec of snap?.records || []) {
        if (!rec.sync) continue;
        const touches = rec.key === key || (rec.uid && rec.uid === obj.metadata.uid)
          || (rec.sync.writes || []).some((w) => w.key === key);
        if (touches && !found.some((f) => f.seq === rec.seq && f.component === rec.component)) found.push(rec);
      }
    }
    for (const item of await kube.syncRecords(ns)) {
      const rec = item.record || item.spec || item;
      if (rec && rec.sync && (rec.key === key || rec.uid === obj.metadata.uid) && !found.some((f) => f.seq === rec.seq && f.component === rec.component)) found.push(rec);
    }
    found.sort((a, b) => String(a.time).localeCompare(String(b.time)));
    clear(syncs).append(h('h2', {}, 'Sync history ', h('span.muted', {}, 'every controller sync that read or wrote this object')),
      found.length ? h('div.sync-list', {}, found.slice(-40).reverse().map((rec) =>
        h('div.sync-item', { dataset: { seq: rec.seq, decision: rec.sync?.decision || '' } },
          h('div.sync-meta', {}, clock(rec.time), ' ', h('b', {}, rec.component), ' / ', rec.controller || ''), syncCard(rec))))
        : h('p.muted', {}, 'no syncs recorded for this object'));
    return found;
  }

  refresh();
  return () => { disposed = true; clearTimeout(timer); };
}

function followLink(resource, ns, name) {
  const controller = resource === 'jobs' ? ['job-controller', 'job'] : resource === 'cronjobs' ? ['cronjob-controller', 'cronjob'] : null;
  return controller ? h('a.button.primary', { href: `#/lanes/${controller[0]}/${controller[1]}?key=${encodeURIComponent(`${ns}/${name}`)}` }, 'Follow in lanes') : null;
}

export function summary(o, res) {
  const st = o.status || {};
  const done = (st.conditions || []).find((c) => c.status === 'True' && ['Complete', 'Failed'].includes(c.type));
  if (res === 'jobs') return `${done ? done.type : 'Running'} · ${st.succeeded || 0}/${o.spec.completions ?? 1}` + (st.failed ? ` · failed ${st.failed}` : '');
  if (res === 'pods') return `${st.phase || 'Pending'}${o.spec.nodeName ? ' on ' + o.spec.nodeName : ''}`;
  if (res === 'cronjobs') return `${o.spec.schedule}` + (o.spec.suspend ? ' · suspended' : '');
  return '';
}
