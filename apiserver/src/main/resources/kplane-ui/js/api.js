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
 * Reads a streamed response one item at a time, the one stream reader of the page (the lens's record
 * stream and the Kubernetes watches both use it). `url` is the address, or a function (may be async)
 * giving it anew for every (re)connection, so a reader can resume where it stopped. Items are separated
 * by `frame` (`'\n\n'` between Server-Sent Events, `'\n'` between a watch's JSON lines); `onItem(text)`
 * gets each one. When the connection drops, the server refuses, or onItem throws, it reconnects after
 * a back-off (0.5 s, doubling to 5 s, reset once a connection is live); a 401 asks for the token first.
 * `onState('live' | 'reconnecting')` reports the connection. Returns a function that stops reading.
 */
function streamLines(url, frame, onItem, { accept = 'application/json', onState = () => {} } = {}) {
  let stopped = false;
  let controller = null;
  let delay = 500;

  async function run() {
    while (!stopped) {
      controller = new AbortController();
      try {
        const target = typeof url === 'function' ? await url() : url;
        const r = await fetch(target, { headers: headers({ Accept: accept }), signal: controller.signal, cache: 'no-store' });
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
          // per item made a large chunk (a page that fell behind a busy component) quadratic.
          let cut;
          let start = 0;
          while ((cut = buffer.indexOf(frame, start)) >= 0) {
            const item = buffer.slice(start, cut);
            start = cut + frame.length;
            onItem(item);
          }
          buffer = buffer.slice(start);
        }
      } catch (e) {
        if (stopped) return;
        controller.abort(); // onItem gave up on this connection: do not leave it open
      }
      onState('reconnecting');
      await new Promise((res) => setTimeout(res, delay));
      delay = Math.min(delay * 2, 5000);
    }
  }
  run();
  return () => { stopped = true; if (controller) controller.abort(); };
}

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
  let last = since;
  const url = () => `/ui/api/components/${encodeURIComponent(component)}/stream` + (last != null ? `?since=${last}` : '');
  return streamLines(url, '\n\n', (block) => {
    const lines = block.split('\n');
    const event = (lines.find((l) => l.startsWith('event:')) || 'event: record').slice(6).trim();
    const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
    if (!data) return; // heartbeat or "skipped N records" comment
    if (prefilter && event !== 'sampling' && !prefilter(data)) {
      const id = lines.find((l) => l.startsWith('id:'));
      if (id) last = Number(id.slice(3).trim());
      return;
    }
    try {
      const rec = JSON.parse(data);
      if (event === 'sampling') { onSampling(!!rec.sampling); return; }
      if (typeof rec.seq === 'number') last = rec.seq;
      onRecord(rec);
    } catch (e) { /* a malformed record is skipped, the stream goes on */ }
  }, { accept: 'text/event-stream', onState });
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
  const url = async () => {
    const rv = await relist();
    const sep = watchUrl.includes('?') ? '&' : '?';
    return `${watchUrl}${sep}watch=true&allowWatchBookmarks=true${rv ? '&resourceVersion=' + encodeURIComponent(rv) : ''}`;
  };
  return streamLines(url, '\n', (text) => {
    const line = text.trim();
    if (!line) return;
    let ev;
    try {
      ev = JSON.parse(line);
    } catch (e) {
      return; // a malformed line is skipped
    }
    // an ERROR event (e.g. 410 Gone) ends this connection: the reconnect relists first
    if (ev.type === 'ERROR') throw new Error(ev.object?.message || 'watch error');
    if (ev.type !== 'BOOKMARK') onEvent(ev);
  }, { onState });
}

/** The CronJob timeline's schedule times, computed by the API server with kubectl-lite's code. */
export function cronTicks(cronJob, nowIso, past = 12, next = 5) {
  const q = new URLSearchParams({ schedule: cronJob.spec.schedule, name: cronJob.metadata.name, now: nowIso,
    from: cronJob.metadata.creationTimestamp, past: String(past), next: String(next) });
  if (cronJob.spec.timeZone) q.set('timeZone', cronJob.spec.timeZone);
  return getJson(`/ui/api/cronjob-ticks?${q}`);
}
