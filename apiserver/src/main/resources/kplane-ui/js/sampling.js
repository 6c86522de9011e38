// The on-screen notice that the page (or a component) is showing a sample, not every record.
const reasons = new Map();

export function setSampling(source, message) {
  if (message) reasons.set(source, message); else reasons.delete(source);
  const el = document.getElementById('sampling');
  if (!el) return;
  el.hidden = reasons.size === 0;
  el.textContent = [...reasons.values()].join(' ');
}
