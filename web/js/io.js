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

function csvCell(v) {
  const s = typeof v === 'number' ? String(v) : String(v ?? '');
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

// rows: arrays of cells; numbers are written with full precision (String(x) round-trips).
export function csvBlob(header, rows) {
  const text = [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\n') + '\n';
  return new Blob([text], { type: 'text/csv' });
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
