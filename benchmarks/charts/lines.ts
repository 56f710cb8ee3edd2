// Line chart (several series over one numeric x axis), written as SVG text.
import { esc, niceTicks, PALETTE, short, svgOpen } from './svg.ts';

/** Data of a line chart: each series gives a y per x. */
export interface LineChart {
  title: string;
  subtitle?: string;
  xLabel: string;
  yLabel: string;
  xs: number[];
  series: Array<{ name: string; ys: number[] }>;
}

/**
 * Renders a line chart with a dot on every point.
 *
 * @example
 * ```ts
 * const svg = lineChart({ title: 'ns', xLabel: 'depth', yLabel: 'ns', xs: [1, 2], series: [{ name: 'a', ys: [5, 9] }] });
 * ```
 */
export function lineChart(chart: LineChart): string {
  const width = 960;
  const height = 460;
  const left = 70;
  const right = 20;
  const top = chart.subtitle ? 66 : 50;
  const bottom = 86;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const yTicks = niceTicks(Math.max(0, ...chart.series.flatMap((s) => s.ys)));
  const xTicks = niceTicks(Math.max(...chart.xs), 8);
  const x = (v: number) => left + (v / xTicks.max) * plotW;
  const y = (v: number) => top + plotH - (v / yTicks.max) * plotH;
  let svg = svgOpen(width, height, chart.title);
  svg += `<text x="${width / 2}" y="24" text-anchor="middle" font-size="16" font-weight="600">${esc(chart.title)}</text>\n`;
  if (chart.subtitle) svg += `<text x="${width / 2}" y="44" text-anchor="middle" fill="#555">${esc(chart.subtitle)}</text>\n`;
  for (const tick of yTicks.ticks) {
    svg += `<line x1="${left}" x2="${width - right}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}" stroke="#e4e4e4"/>`;
    svg += `<text x="${left - 6}" y="${(y(tick) + 4).toFixed(1)}" text-anchor="end" fill="#444">${short(tick)}</text>\n`;
  }
  for (const tick of xTicks.ticks) {
    svg += `<line x1="${x(tick).toFixed(1)}" x2="${x(tick).toFixed(1)}" y1="${top + plotH}" y2="${top + plotH + 5}" stroke="#444"/>`;
    svg += `<text x="${x(tick).toFixed(1)}" y="${top + plotH + 18}" text-anchor="middle" fill="#444">${short(tick)}</text>\n`;
  }
  svg += `<line x1="${left}" x2="${width - right}" y1="${top + plotH}" y2="${top + plotH}" stroke="#444"/>\n`;
  svg += `<text x="${left + plotW / 2}" y="${top + plotH + 38}" text-anchor="middle" fill="#444">${esc(chart.xLabel)}</text>\n`;
  svg += `<text transform="translate(16 ${top + plotH / 2}) rotate(-90)" text-anchor="middle" fill="#444">${esc(chart.yLabel)}</text>\n`;
  chart.series.forEach((series, s) => {
    const color = PALETTE[s % PALETTE.length];
    const points = chart.xs.map((xv, i) => `${x(xv).toFixed(1)},${y(series.ys[i]!).toFixed(1)}`).join(' ');
    svg += `<polyline points="${points}" fill="none" stroke="${color}" stroke-width="2"/>\n`;
    chart.xs.forEach((xv, i) => {
      svg += `<circle cx="${x(xv).toFixed(1)}" cy="${y(series.ys[i]!).toFixed(1)}" r="3.5" fill="${color}"><title>${esc(`${series.name} · depth ${xv}: ${series.ys[i]!.toFixed(0)} ns`)}</title></circle>`;
    });
    svg += '\n';
  });
  const legendY = height - 20;
  const legendW = plotW / chart.series.length;
  chart.series.forEach((series, s) => {
    const lx = left + s * legendW;
    svg += `<rect x="${lx.toFixed(1)}" y="${legendY - 10}" width="12" height="12" fill="${PALETTE[s % PALETTE.length]}"/>`;
    svg += `<text x="${(lx + 18).toFixed(1)}" y="${legendY}">${esc(series.name)}</text>\n`;
  });
  return `${svg}</svg>\n`;
}
