/**
 * The charts' script, run in the page after uPlot (inlined): reads the data island `#chart-data`
 * and draws the three charts. Plain browser JavaScript in a string: it is never run by Node.
 */
export const CHART_SCRIPT = String.raw`
(function () {
  var data = JSON.parse(document.getElementById('chart-data').textContent);
  var palette = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#be185d', '#4b5563'];
  var width = Math.min(1100, document.body.clientWidth - 40);

  function rtpChart(el) {
    var points = data.rtp;
    if (points.length === 0) { el.textContent = 'No paid rounds in the log.'; return; }
    var xs = points.map(function (_, i) { return i; });
    var pct = function (v) { return v === null ? null : Math.round(v * 10000) / 100; };
    var measured = points.map(function (p) { return pct(p.measuredRtp); });
    var target = points.map(function (p) { return pct(p.targetRtp); });
    var low = points.map(function (p) { return pct(p.lowRtp); });
    var high = points.map(function (p) { return pct(p.highRtp); });
    var all = measured.concat(target, low, high).filter(function (v) { return v !== null; });
    var min = Math.min.apply(null, all), max = Math.max.apply(null, all);
    var pad = Math.max(5, (max - min) * 0.1);
    var none = function () { return null; };
    new uPlot({
      title: 'RTP per game: measured (95 % confidence interval) vs target',
      width: width, height: 340,
      scales: { x: { time: false, range: [-0.5, xs.length - 0.5] }, y: { range: [Math.max(0, min - pad), max + pad] } },
      axes: [
        { splits: function () { return xs; }, values: function (u, splits) { return splits.map(function (i) { return points[i] ? points[i].label : ''; }); }, size: 60 },
        { label: 'RTP %', values: function (u, v) { return v.map(function (x) { return x + ' %'; }); } },
      ],
      series: [
        { label: 'game' },
        { label: 'measured RTP', stroke: palette[0], fill: palette[0], paths: none, points: { show: true, size: 10, fill: palette[0] } },
        { label: 'target RTP', stroke: palette[1], paths: none, points: { show: true, size: 12, width: 2, fill: '#fff' } },
        { label: '95 % CI low', stroke: palette[0], paths: none, points: { show: false } },
        { label: '95 % CI high', stroke: palette[0], paths: none, points: { show: false } },
      ],
      hooks: { draw: [function (u) {
        var ctx = u.ctx;
        ctx.save();
        ctx.strokeStyle = palette[0];
        ctx.lineWidth = 2 * devicePixelRatio;
        for (var i = 0; i < xs.length; i++) {
          var x = u.valToPos(i, 'x', true), y0 = u.valToPos(low[i], 'y', true), y1 = u.valToPos(high[i], 'y', true);
          var cap = 8 * devicePixelRatio;
          ctx.beginPath();
          ctx.moveTo(x, y0); ctx.lineTo(x, y1);
          ctx.moveTo(x - cap, y0); ctx.lineTo(x + cap, y0);
          ctx.moveTo(x - cap, y1); ctx.lineTo(x + cap, y1);
          ctx.stroke();
        }
        ctx.restore();
      }] },
    }, [xs, measured, target, low, high], el);
  }

  function ggrChart(el) {
    var series = data.ggr;
    if (series.length === 0) { el.textContent = 'No money moved in the log.'; return; }
    var days = [];
    series.forEach(function (s) { s.points.forEach(function (p) { if (days.indexOf(p.day) < 0) days.push(p.day); }); });
    days.sort();
    var xs = days.map(function (d) { return Date.parse(d + 'T00:00:00Z') / 1000; });
    var currencies = [];
    series.forEach(function (s) { if (currencies.indexOf(s.currency) < 0) currencies.push(s.currency); });
    var scales = { x: { time: true, range: [xs[0] - 86400, xs[xs.length - 1] + 86400] } };
    // Each currency on its own axis, zero always in range: a loss shows below the line.
    currencies.forEach(function (c) {
      scales[c] = { range: function (u, min, max) { var pad = (Math.max(0, max) - Math.min(0, min)) * 0.1 || 1; return [Math.min(0, min) - pad, Math.max(0, max) + pad]; } };
    });
    var axes = [{}].concat(currencies.slice(0, 2).map(function (c, i) {
      return { scale: c, side: i === 0 ? 3 : 1, label: 'GGR ' + c, grid: { show: i === 0 } };
    }));
    var n = series.length;
    // Side by side around the day: the first operator left of it, the next right, and so on.
    var bars = series.map(function (s, i) {
      return uPlot.paths.bars({ size: [0.8 / n, 60], align: n === 1 ? 0 : i % 2 === 0 ? -1 : 1 });
    });
    new uPlot({
      title: 'Daily GGR per operator (bets − wins, in each operator’s time zone; streamers excluded)',
      width: width, height: 320, scales: scales, axes: axes,
      series: [{ label: 'day' }].concat(series.map(function (s, i) {
        return { label: s.operatorId + ' (' + s.currency + ')', scale: s.currency, stroke: palette[i % 8], fill: palette[i % 8] + '99', paths: bars[i], points: { show: false } };
      })),
    }, [xs].concat(series.map(function (s) {
      return days.map(function (d) { var p = s.points.find(function (q) { return q.day === d; }); return p ? p.ggr : null; });
    })), el);
  }

  function latencyChart(el) {
    var series = data.latency;
    if (series.length === 0) { el.textContent = 'No callback was answered in the log.'; return; }
    var xs = [];
    series.forEach(function (s) { s.latenciesMs.forEach(function (v) { if (xs.indexOf(v) < 0) xs.push(v); }); });
    xs.sort(function (a, b) { return a - b; });
    var ys = series.map(function (s) {
      var sorted = s.latenciesMs, j = 0;
      return xs.map(function (x) { while (j < sorted.length && sorted[j] <= x) j++; return Math.round((j / sorted.length) * 1000) / 10; });
    });
    new uPlot({
      title: 'Callback latency: share of attempts answered within x ms',
      width: width, height: 320,
      scales: { x: { time: false }, y: { range: [0, 100] } },
      axes: [{ label: 'latency (ms)' }, { label: '% of attempts', values: function (u, v) { return v.map(function (x) { return x + ' %'; }); } }],
      series: [{ label: 'ms' }].concat(series.map(function (s, i) {
        return { label: s.operatorId + ' ' + s.command + ' (' + s.latenciesMs.length + ')', stroke: palette[i % 8], width: 2, paths: uPlot.paths.stepped({ align: 1 }) };
      })),
    }, [xs].concat(ys), el);
  }

  rtpChart(document.getElementById('chart-rtp'));
  ggrChart(document.getElementById('chart-ggr'));
  latencyChart(document.getElementById('chart-latency'));
  document.body.dataset.charts = 'drawn';
})();
`;
