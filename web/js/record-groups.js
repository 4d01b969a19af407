// record-groups.js — many shown records drawn as few datasets. Chart.js's update costs about a
// tenth of a millisecond per dataset whatever its size, so a thousand small records (two datasets
// each: the crosses and the predicted stars) made one update of a quarter of a second. Above
// GROUP_AT shown records, the series that look the same (colour, mark, hollow, predicted) are
// drawn as one dataset: at most 8 colours × 4 kinds, each point's tooltip naming its file. The
// list of records, the kernels list, compare mode and the marks themselves are unchanged.
export const GROUP_AT = 24;

// series: records.js's measured series ({ label, color, colorIndex, hollow, pointStyle, points,
// predicted, file }) → the same shape, merged by look; each group's label names its records.
export function groupSeries(series) {
  const groups = new Map();
  for (const s of series) {
    const key = `${s.colorIndex}|${s.hollow}|${s.pointStyle}|${s.rotation || 0}|${!!s.predicted}`; // (a record's groups: mark and rotation)
    let g = groups.get(key);
    if (!g) {
      g = { ...s, points: [], files: [] };
      groups.set(key, g);
    }
    for (const p of s.points) g.points.push(p);
    if (g.files[g.files.length - 1] !== s.file) g.files.push(s.file); // a record's groups: named once
  }
  return [...groups.values()].map(({ files, ...g }) => {
    const n = files.length;
    const names = `${files.slice(0, 3).join(', ')}${n > 3 ? ` and ${(n - 3).toLocaleString('en-US')} more` : ''}`;
    return { ...g, label: `${n.toLocaleString('en-US')} record${n === 1 ? '' : 's'} in colour ${g.colorIndex + 1}${g.predicted ? ', predicted (☆)' : ''}${g.hollow && !g.predicted ? ' [historical, unaudited — not evidence]' : ''}: ${names}` };
  });
}
