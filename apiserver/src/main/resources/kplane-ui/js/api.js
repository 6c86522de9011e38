// Everything the page reads comes from this one origin: the Kubernetes API (/api, /apis) and the lens
// proxy (/ui/api). With --auth the same bearer token is sent to both; it lives in sessionStorage only.

const TOKEN_KEY = 'kplane.lens.token';

export class Unauthorized extends Error {}

function headers(extra = {}) {
  const h = { Accept: 'application/json', ...extra };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) h.Authorization = 'Bearer ' + token;
  return h;
}

let askingForToken = null;

/** Shows the token dialog once, however many requests hit 401 at the same time. */
export function askForToken() {
  if (askingForToken) return askingForToken;
  const dialog = document.getElementById('login');
  const input = document.getElementById('login-token');
  askingForToken = new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      sessionStorage.setItem(TOKEN_KEY, input.value.trim());
      askingForToken = null;
      resolve();
    }, { once: true });
    dialog.showModal();
  });
  return askingForToken;
}

export async function getJson(path) {
  for (let attempt = 0; ; attempt++) {
    const r = await fetch(path, { headers: headers(), cache: 'no-store' });
    if (r.status === 401 && attempt < 3) { await askForToken(); continue; }
    if (!r.ok) {
      let message = r.statusText;
      try { message = (await r.json()).message || message; } catch (e) { /* not a Status */ }
      const err = new Error(message);
      err.status = r.status;
      throw err;
    }
    return r.json();
  }
}

export async function postJson(path) {
  const r = await fetch(path, { method: 'POST', headers: headers() });
  if (r.status === 401) { await askForToken(); return postJson(path); }
  if (!r.ok) throw new Error((await r.text()) || r.statusText);
  return r.json();
}

export const lens = {
  components: () => getJson('/ui/api/components'),
  snapshot: (c) => getJson(`/ui/api/components/${encodeURIComponent(c)}/snapshot`),
  objectSyncs: (c, ns, name) => getJson(`/ui/api/components/${encodeURIComponent(c)}/objects/${encodeURIComponent(ns)}/${encodeURIComponent(name)}`),
  control: (c, controller, action) =>
    postJson(`/ui/api/components/${encodeURIComponent(c)}/controllers/${encodeURIComponent(controller)}/${action}`),
};

/**
 * Follows one component's record stream (Server-Sent Events read with fetch, because EventSource
 * cannot send an Authorization header). Reconnects from the last sequence number it saw, so a
 * dropped connection loses nothing still in the component's ring buffer.
 * `prefilter(rawJson)`, when given, sees each record's text before it is parsed and may drop it
 * (returns false): under load most records are sampled away, and parsing them only to drop them was
 * most of the page's work.
 * Returns a function that stops following.
 */
export function follow(component, since, onRecord, onState, onSampling = () => {}, prefilter = null) {
  let stopped = false;
  let controller = null;
  let last = since;
  let delay = 500;

  async function run() {
    while (!stopped) {
      controller = new AbortController();
      try {
        const url = `/ui/api/components/${encodeURIComponent(component)}/stream` + (last != null ? `?since=${last}` : '');
        const r = await fetch(url, { headers: headers({ Accept: 'text/event-stream' }), signal: controller.signal });
        if (r.status === 401) { await askForToken(); continue; }
        if (!r.ok || !r.body) throw new Error(`stream answered ${r.status}`);
        onState('live');
        delay = 500;
        const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          // One pass over the chunk with a moving start, one slice at the end: re-slicing the buffer
          // per event made a large chunk (a page that fell behind a busy component) quadratic.
          let cut;
          let start = 0;
          while ((cut = buffer.indexOf('\n\n', start)) >= 0) {
            const block = buffer.slice(start, cut);
            start = cut + 2;
            const lines = block.split('\n');
            const event = (lines.find((l) => l.startsWith('event:')) || 'event: record').slice(6).trim();
            const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
            if (!data) continue; // heartbeat or "skipped N records" comment
            if (prefilter && event !== 'sampling' && !prefilter(data)) {
              const id = lines.find((l) => l.startsWith('id:'));
              if (id) last = Number(id.slice(3).trim());
              continue;
            }
            try {
              const rec = JSON.parse(data);
              if (event === 'sampling') { onSampling(!!rec.sampling); continue; }
              if (typeof rec.seq === 'number') last = rec.seq;
              onRecord(rec);
            } catch (e) { /* a malformed record is skipped, the stream goes on */ }
          }
          buffer = buffer.slice(start);
        }
      } catch (e) {
        if (stopped) return;
      }
      onState('reconnecting');
      await new Promise((res) => setTimeout(res, delay));
      delay = Math.min(delay * 2, 5000);
    }
  }
  run();
  return () => { stopped = true; if (controller) controller.abort(); };
}

// ---- the Kubernetes API -------------------------------------------------------------------------

const PATHS = {
  jobs: (ns) => `/apis/batch/v1/namespaces/${ns}/jobs`,
  cronjobs: (ns) => `/apis/batch/v1/namespaces/${ns}/cronjobs`,
  pods: (ns) => `/api/v1/namespaces/${ns}/pods`,
  events: (ns) => `/api/v1/namespaces/${ns}/events`,
};

export const KINDS = { jobs: 'Job', cronjobs: 'CronJob', pods: 'Pod' };
export const RESOURCE_OF_KIND = { Job: 'jobs', CronJob: 'cronjobs', Pod: 'pods' };

let syncRecordsServed = null; // probed once: older clusters do not serve the kind

export const kube = {
  list: (resource, ns) => getJson(PATHS[resource](ns)),
  get: (resource, ns, name) => getJson(`${PATHS[resource](ns)}/${encodeURIComponent(name)}`),
  /** Persisted sync records, if this cluster serves them (the lens's own kind); [] otherwise. */
  async syncRecords(ns) {
    if (syncRecordsServed === null) {
      syncRecordsServed = await getJson('/apis/lens.kplane.io/v1').then(() => true, () => false);
    }
    if (!syncRecordsServed) return [];
    try {
      const list = await getJson(`/apis/lens.kplane.io/v1/namespaces/${ns}/syncrecords`);
      return list.items || [];
    } catch (e) {
      return [];
    }
  },
};

/**
 * Follows a Kubernetes watch (`?watch=true`, one JSON event per line) with the page's credentials,
 * calling onEvent({type, object}) for each. Before each (re)connection it calls relist(), which reads
 * the current state and returns the resourceVersion to watch from, so a broken connection or a 410
 * never leaves the page on stale data. Returns a function that stops following.
 */
export function watchPath(watchUrl, relist, onEvent, onState = () => {}) {
  let stopped = false;
  let controller = null;
  let delay = 500;
  async function run() {
    while (!stopped) {
      controller = new AbortController();
      try {
        const rv = await relist();
        const sep = watchUrl.includes('?') ? '&' : '?';
        const r = await fetch(`${watchUrl}${sep}watch=true&allowWatchBookmarks=true${rv ? '&resourceVersion=' + encodeURIComponent(rv) : ''}`,
          { headers: headers(), signal: controller.signal, cache: 'no-store' });
        if (r.status === 401) { await askForToken(); continue; }
        if (!r.ok || !r.body) throw new Error(`watch answered ${r.status}`);
        onState('live');
        delay = 500;
        const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut;
          while ((cut = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, cut).trim();
            buffer = buffer.slice(cut + 1);
            if (!line) continue;
            try {
              const ev = JSON.parse(line);
              if (ev.type === 'ERROR') throw new Error(ev.object?.message || 'watch error');
              if (ev.type !== 'BOOKMARK') onEvent(ev);
            } catch (e) {
              if (e instanceof SyntaxError) continue;
              throw e;
            }
          }
        }
      } catch (e) {
        if (stopped) return;
      }
      onState('reconnecting');
      await new Promise((res) => setTimeout(res, delay));
      delay = Math.min(delay * 2, 5000);
    }
  }
  run();
  return () => { stopped = true; if (controller) controller.abort(); };
}

/** The CronJob timeline's schedule times, computed by the API server with kubectl-lite's code. */
export function cronTicks(cronJob, nowIso, past = 12, next = 5) {
  const q = new URLSearchParams({ schedule: cronJob.spec.schedule, name: cronJob.metadata.name, now: nowIso,
    from: cronJob.metadata.creationTimestamp, past: String(past), next: String(next) });
  if (cronJob.spec.timeZone) q.set('timeZone', cronJob.spec.timeZone);
  return getJson(`/ui/api/cronjob-ticks?${q}`);
}
