// Grouped bar chart (one group per category, one bar per series), written as SVG text.
import { esc, niceTicks, PALETTE, short, svgOpen } from './svg.ts';

/** Data of a grouped bar chart; a missing value draws "n/a". */
export interface BarChart {
  title: string;
  subtitle?: string;
  yLabel: string;
  groups: string[];
  /**
   * A label under each group's bars (the Node line of a group, say); neighbouring groups of the
   * same name then share one name below their notes.
   */
  groupNotes?: string[];
  series: string[];
  /** `values[group][series]` */
  values: Array<Array<number | undefined>>;
}

/**
 * Renders a grouped bar chart.
 *
 * @example
 * ```ts
 * const svg = barChart({ title: 'req/s', yLabel: 'req/s', groups: ['hello'], series: ['a', 'b'], values: [[10, 12]] });
 * ```
 */
export function barChart(chart: BarChart): string {
  const left = 70;
  const right = 20;
  // Wider than the page when there are many bars, so that none gets thinner than 14 px (GitHub scales the image down).
  const width = Math.max(960, left + right + chart.groups.length * (chart.series.length * 18 + 8));
  const height = 460;
  const top = chart.subtitle ? 66 : 50;
  const bottom = chart.groupNotes ? 96 : 80;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const all = chart.values.flat().filter((v): v is number => v !== undefined);
  const { max, ticks } = niceTicks(Math.max(0, ...all));
  const y = (v: number) => top + plotH - (v / max) * plotH;
  const groupW = plotW / chart.groups.length;
  const barW = Math.min(36, (groupW * 0.8) / chart.series.length);
  let svg = svgOpen(width, height, chart.title);
  svg += `<text x="${width / 2}" y="24" text-anchor="middle" font-size="16" font-weight="600">${esc(chart.title)}</text>\n`;
  if (chart.subtitle) svg += `<text x="${width / 2}" y="44" text-anchor="middle" fill="#555">${esc(chart.subtitle)}</text>\n`;
  for (const tick of ticks) {
    svg += `<line x1="${left}" x2="${width - right}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}" stroke="#e4e4e4"/>`;
    svg += `<text x="${left - 6}" y="${(y(tick) + 4).toFixed(1)}" text-anchor="end" fill="#444">${short(tick)}</text>\n`;
  }
  svg += `<text transform="translate(16 ${top + plotH / 2}) rotate(-90)" text-anchor="middle" fill="#444">${esc(chart.yLabel)}</text>\n`;
  chart.groups.forEach((group, g) => {
    const note = chart.groupNotes?.[g];
    const name = note ? `${group}, ${note}` : group;
    const start = left + g * groupW + (groupW - barW * chart.series.length) / 2;
    chart.series.forEach((series, s) => {
      const value = chart.values[g]?.[s];
      const x = start + s * barW;
      if (value === undefined) {
        svg += `<text x="${(x + barW / 2).toFixed(1)}" y="${top + plotH - 4}" text-anchor="middle" font-size="10" fill="#999">n/a</text>\n`;
        return;
      }
      const h = (value / max) * plotH;
      svg += `<rect x="${(x + 1).toFixed(1)}" y="${y(value).toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="${PALETTE[s % PALETTE.length]}"><title>${esc(`${series} · ${name}: ${Math.round(value).toLocaleString('en-US')}`)}</title></rect>`;
      svg += valueLabel(x + barW / 2, y(value) - 4, short(value), barW < 28);
    });
    if (note) svg += `<text x="${(left + g * groupW + groupW / 2).toFixed(1)}" y="${top + plotH + 18}" text-anchor="middle" fill="#555">${esc(note)}</text>\n`;
  });
  const nameY = top + plotH + (chart.groupNotes ? 38 : 20);
  for (const run of runsOf(chart.groups)) {
    const centre = left + (run.first + run.count / 2) * groupW;
    svg += `<text x="${centre.toFixed(1)}" y="${nameY}" text-anchor="middle" font-weight="600">${esc(run.name)}</text>\n`;
    const edge = left + run.first * groupW;
    if (run.count > 1 && run.first > 0) svg += `<line x1="${edge.toFixed(1)}" x2="${edge.toFixed(1)}" y1="${top}" y2="${nameY + 4}" stroke="#d0d0d0"/>\n`;
  }
  svg += `<line x1="${left}" x2="${width - right}" y1="${top + plotH}" y2="${top + plotH}" stroke="#444"/>\n`;
  const legendY = height - 24;
  const legendW = plotW / chart.series.length;
  chart.series.forEach((series, s) => {
    const x = left + s * legendW;
    svg += `<rect x="${x.toFixed(1)}" y="${legendY - 10}" width="12" height="12" fill="${PALETTE[s % PALETTE.length]}"/>`;
    svg += `<text x="${(x + 18).toFixed(1)}" y="${legendY}">${esc(series)}</text>\n`;
  });
  return `${svg}</svg>\n`;
}

// Neighbouring equal names, as one name each with where it starts and how many groups it covers.
function runsOf(names: readonly string[]): Array<{ name: string; first: number; count: number }> {
  const runs: Array<{ name: string; first: number; count: number }> = [];
  names.forEach((name, i) => {
    const last = runs.at(-1);
    if (last?.name === name) last.count++;
    else runs.push({ name, first: i, count: 1 });
  });
  return runs;
}

// A bar's number above it; turned upright when the bar is too thin for it to fit across.
function valueLabel(x: number, y: number, text: string, upright: boolean): string {
  const at = `x="${x.toFixed(1)}" y="${y.toFixed(1)}"`;
  if (!upright) return `<text ${at} text-anchor="middle" font-size="10" fill="#333">${text}</text>\n`;
  return `<text ${at} transform="rotate(-90 ${x.toFixed(1)} ${y.toFixed(1)})" dy="3" font-size="10" fill="#333">${text}</text>\n`;
}
