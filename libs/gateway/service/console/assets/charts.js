// The wallet-health charts, drawn as SVG elements (attributes only, no inline style, so the CSP's
// `style-src 'self'` holds): per bucket, the callbacks as a bar — answered OK below, failed above —
// and the 95th-percentile latency as a line on its own scale.

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  for (const child of children) element.append(child);
  return element;
}

/**
 * A chart of `buckets` ({from, callbacks, succeeded, latencyMsP95}); `label(bucket)` names a bucket
 * (its hover title), `tick(bucket)` its axis label or '' for none; `texts` the legend's words.
 */
export function healthChart(buckets, { title, label, tick, texts }) {
  const width = 560;
  const height = 180;
  const left = 36;
  const right = 44;
  const top = 16;
  const bottom = 24;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const most = Math.max(1, ...buckets.map((bucket) => bucket.callbacks));
  const slowest = Math.max(1, ...buckets.map((bucket) => bucket.latencyMsP95 ?? 0));
  const slot = plotWidth / Math.max(1, buckets.length);
  const barWidth = Math.max(2, slot * 0.7);
  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: 'chart',
    role: 'img',
    'aria-label': title,
  });
  chart.append(svg('title', {}, title));
  chart.append(
    svg('line', { x1: left, y1: top + plotHeight, x2: left + plotWidth, y2: top + plotHeight, class: 'axis' }),
  );
  chart.append(svg('text', { x: left - 4, y: top + 12, class: 'scale', 'text-anchor': 'end' }, String(most)));
  chart.append(svg('text', { x: left + plotWidth + 4, y: top + 8, class: 'scale latency' }, `${slowest} ms`));
  const points = [];
  buckets.forEach((bucket, index) => {
    const x = left + index * slot + (slot - barWidth) / 2;
    const okHeight = (bucket.succeeded / most) * plotHeight;
    const failedHeight = ((bucket.callbacks - bucket.succeeded) / most) * plotHeight;
    const group = svg('g', {});
    group.append(
      svg(
        'title',
        {},
        `${label(bucket)}: ${bucket.callbacks} ${texts.callbacks}, ${bucket.callbacks - bucket.succeeded} ${texts.failed}` +
          (bucket.latencyMsP95 === null ? '' : `, p95 ${bucket.latencyMsP95} ms`),
      ),
    );
    group.append(
      svg('rect', { x, y: top + plotHeight - okHeight, width: barWidth, height: okHeight, class: 'bar-ok' }),
    );
    group.append(
      svg('rect', {
        x,
        y: top + plotHeight - okHeight - failedHeight,
        width: barWidth,
        height: failedHeight,
        class: 'bar-failed',
      }),
    );
    chart.append(group);
    const name = tick(bucket);
    if (name !== '')
      chart.append(svg('text', { x: x + barWidth / 2, y: height - 6, class: 'tick', 'text-anchor': 'middle' }, name));
    if (bucket.latencyMsP95 !== null) {
      const cx = x + barWidth / 2;
      const cy = top + plotHeight - (bucket.latencyMsP95 / slowest) * plotHeight;
      points.push(`${cx},${cy}`);
      chart.append(svg('circle', { cx, cy, r: 3, class: 'latency-point' }));
    }
  });
  if (points.length > 0) chart.append(svg('polyline', { points: points.join(' '), class: 'latency-line' }));
  // The legend's entries one after the other, each as wide as its words (about 6 units a character).
  const legend = svg('g', { class: 'legend' });
  let at = left;
  for (const [mark, words] of [
    [svg('rect', { x: 0, y: 0, width: 8, height: 8, class: 'bar-ok' }), texts.ok],
    [svg('rect', { x: 0, y: 0, width: 8, height: 8, class: 'bar-failed' }), texts.failed],
    [svg('line', { x1: 0, y1: 4, x2: 10, y2: 4, class: 'latency-line' }), texts.p95],
  ]) {
    const entry = svg('g', { transform: `translate(${at} 0)` });
    entry.append(mark, svg('text', { x: 14, y: 8 }, words));
    legend.append(entry);
    at += 14 + words.length * 6 + 16;
  }
  chart.append(legend);
  return chart;
}
