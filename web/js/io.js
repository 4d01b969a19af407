// io.js — files out of the page: PNG and CSV downloads, and the shareable link.

export function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// One CSV cell. Numbers are written as numbers (String(x) round-trips; a negative number stays a
// number). Every other cell is text: quoted, inner quotes doubled, and — the OWASP rule against
// CSV (formula) injection — a text that begins with = + - @ tab or carriage return gets a leading
// single quote, so a spreadsheet shows it as text instead of evaluating it. null/undefined: empty.
const FORMULA_START = /^[=+\-@\t\r]/;
export function csvCell(v) {
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v === null || v === undefined) return '';
  const s = String(v);
  return `"${(FORMULA_START.test(s) ? `'${s}` : s).replace(/"/g, '""')}"`;
}

// header: cell texts; rows: arrays of cells. Lines end with \n, the text too.
export function csvText(header, rows) {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\n') + '\n';
}

export function csvBlob(header, rows) {
  return new Blob([csvText(header, rows)], { type: 'text/csv' });
}

// Copies text to the clipboard where the browser allows it; resolves to true when it did.
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (_) {
    // Clipboard refused (no permission, headless): the caller shows the link instead.
  }
  return false;
}
