/** The one-line progress of a long replay: `label: 12,345/1,000,000 · 4,321/s · 3 min 50 s left`. */

/** The line, starting with `\r` so that each overwrites the one before on a terminal. */
export function progressLine(label: string, done: number, total: number, perSecond: number): string {
  const left = perSecond > 0 ? Math.max(0, total - done) / perSecond : Number.POSITIVE_INFINITY;
  const eta = Number.isFinite(left) ? ` · ${Math.floor(left / 60)} min ${Math.round(left % 60)} s left` : '';
  const n = (x: number) => Math.round(x).toLocaleString('en');
  return `\r${label}: ${n(done)}/${n(total)} · ${n(perSecond)}/s${eta}   `;
}
