// kplane lens: entry point and hash router. Plain ES modules served from the API server's jar.
import { h, clear, num, parseHash } from './dom.js';
import { lens, kube } from './api.js';
import { laneView } from './lanes.js';
import { objectView, summary } from './object.js';
import { mountClusterClock } from './clock.js';

const view = document.getElementById('view');
let dispose = null;

function route() {
  if (dispose) { dispose(); dispose = null; }
  const { parts, params } = parseHash();
  if (parts[0] === 'lanes' && parts.length >= 3) {
    dispose = laneView(view, parts[1], parts[2], params.get('key') || '');
  } else if (parts[0] === 'lanes' && parts.length === 2) {
    // A component without a controller name: open its first controller.
    lens.snapshot(parts[1]).then((snap) => {
      const first = (snap.controllers || [])[0];
      if (first) location.replace(`#/lanes/${parts[1]}/${first.name}`);
      else clear(view).append(h('p.muted', {}, `${parts[1]} runs no controller.`));
    }).catch((e) => clear(view).append(h('p.muted', {}, e.message)));
  } else if (parts[0] === 'object' && parts.length >= 4) {
    dispose = objectView(view, parts[1], parts[2], parts[3]);
  } else {
    dispose = home(view, params.get('namespace') || 'default');
  }
  renderNav();
}

async function renderNav() {
  const nav = document.getElementById('nav');
  try {
    const { components } = await lens.components();
    const controllers = components.filter((c) => c.kind === 'controller');
    clear(nav).append(...controllers.map((c) => h('a', { href: `#/lanes/${c.name}`, class: c.stale ? 'stale' : '' }, c.name.replace(/-controller$/, ''))));
  } catch (e) {
    clear(nav);
  }
}

/** The start page: every component's controllers with live counters, and the namespace's objects. */
function home(root, ns) {
  let disposed = false;
  let timer = 0;
  const grid = h('div#components.component-grid');
  const objects = h('div#objects.object-lists');
  clear(root).append(
    h('section.intro', {}, h('h1', {}, 'Watch the control loop work'),
      h('p', {}, 'Every controller here runs the machinery of the Kubernetes controllers: reflector list/watch → DeltaFIFO → indexer → event handlers → workqueue → sync. ',
        'Pick a controller to see its lanes, or an object to follow it through them.')),
    h('h2', {}, 'Controllers'), grid,
    h('h2', {}, 'Objects in ', h('span.mono', {}, ns)), objects);

  async function refresh() {
    try {
      const { components } = await lens.components();
      const snaps = await Promise.all(components.map((c) => lens.snapshot(c.name).then((s) => [c, s]).catch((e) => [c, null, e])));
      clear(grid);
      if (!components.length) grid.append(h('p.muted', {}, 'No component announces a lens yet (Leases kube-system/kplane-lens-*).'));
      for (const [c, snap, err] of snaps) {
        const card = h('div.component' + (c.stale ? '.stale' : ''), {}, h('h3', {}, c.name, c.stale ? h('span.badge', {}, 'lease expired') : null));
        if (!snap) card.append(h('p.muted', {}, err ? err.message : 'unreachable'));
        for (const k of snap?.controllers || []) {
          const n = k.counters || {};
          card.append(h('a.controller-line', { href: `#/lanes/${c.name}/${k.name}` },
            h('b', {}, k.name), k.paused ? h('span.badge.paused', {}, 'paused') : null,
            h('span', {}, `depth ${num(n.depth)}`), h('span', {}, `adds ${num(n.adds)}`), h('span', {}, `retries ${num(n.retries)}`),
            h('span', {}, `in flight ${num(n.inFlight)}`), h('span', {}, `p99 ${num(n.syncP99Ms, 1)} ms`),
            h('span', {}, `expecting ${num(n.pendingExpectations)}`)));
        }
        grid.append(card);
      }
      const lists = await Promise.all(['cronjobs', 'jobs', 'pods'].map((r) => kube.list(r, ns).then((l) => [r, l.items || []]).catch(() => [r, []])));
      clear(objects);
      for (const [r, items] of lists) {
        objects.append(h('div.panel', {}, h('h3', {}, { cronjobs: 'CronJobs', jobs: 'Jobs', pods: 'Pods' }[r], ' ', h('span.muted', {}, items.length)),
          h('ul.plain', {}, items.slice(0, 50).map((o) => h('li', {}, h('a', { href: `#/object/${r}/${ns}/${o.metadata.name}` }, o.metadata.name), ' ', h('span.muted', {}, summary(o, r)))))));
      }
    } catch (e) {
      clear(grid).append(h('p.muted', {}, e.message));
    }
    if (!disposed) timer = setTimeout(refresh, 2000);
  }
  refresh();
  return () => { disposed = true; clearTimeout(timer); };
}

window.addEventListener('hashchange', route);
mountClusterClock(document.getElementById('cluster-clock'));
route();
