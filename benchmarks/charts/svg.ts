// Pieces shared by the hand-written SVG charts.

/** Escapes text for SVG content and attribute values. */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A color per series, readable on white and told apart in grey print. */
export const PALETTE = ['#2f6b3a', '#1f5fa8', '#8c8c8c', '#c0392b', '#d68910', '#7d3c98'];

/**
 * A round axis maximum and its tick values (1, 2 or 5 times a power of ten per step).
 *
 * @example
 * ```ts
 * niceTicks(87_000); // { max: 100000, ticks: [0, 20000, 40000, 60000, 80000, 100000] }
 * ```
 */
export function niceTicks(maxValue: number, count = 5): { max: number; ticks: number[] } {
  if (!(maxValue > 0)) return { max: 1, ticks: [0, 1] };
  const rough = maxValue / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough)!;
  const max = Math.ceil(maxValue / step) * step;
  const ticks: number[] = [];
  for (let v = 0; v <= max + step / 2; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return { max, ticks };
}

/** A number in a short form for labels: 45.1k, 20k, 1.2M, 830. */
export function short(value: number): string {
  const trim = (text: string) => text.replace(/\.0$/, '');
  if (value >= 1e6) return `${trim((value / 1e6).toFixed(value >= 1e7 ? 0 : 1))}M`;
  if (value >= 1e3) return `${trim((value / 1e3).toFixed(value >= 1e5 ? 0 : 1))}k`;
  return value.toFixed(0);
}

/** Opens an SVG document with a white background and the chart's font. */
export function svgOpen(width: number, height: number, title: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
    `font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12">\n` +
    `<title>${esc(title)}</title>\n<rect width="${width}" height="${height}" fill="#ffffff"/>\n`
  );
}
