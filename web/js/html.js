// html.js — the page's one HTML escape. Every string that reaches innerHTML (core's formatted
// numbers, preset figures, record labels from uploaded files) goes through escapeHtml.
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (ch) => ENTITIES[ch]);
}
