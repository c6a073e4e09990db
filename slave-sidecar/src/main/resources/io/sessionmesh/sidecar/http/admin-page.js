// The operators' page's script (GET /admin/page.js; the page is GET /admin/). It polls GET /admin/stats and
// GET /admin/health and writes what they say into the elements marked data-figure: the text for a person, and the
// raw number in data-value for a tool. Values from the sidecar are written as text (textContent), never as markup.
// With an admin token on the sidecar, the token typed into the page is kept in this tab's sessionStorage and sent as
// "Authorization: Bearer <token>" on every fetch; it is never put in a URL. The limits are in docs/operations.md,
// "The operators' page".
'use strict';

(function () {
  /** Time between the end of one poll and the start of the next. */
  const POLL_INTERVAL_MS = 2000;
  /** Points each chart keeps (the oldest is dropped): 150 at 2 s is the last 5 minutes. */
  const HISTORY_POINTS = 150;
  /** A fetch not answered in this time is abandoned, and the poll reported as failed. */
  const FETCH_TIMEOUT_MS = 5000;
  /** Where the token is kept: this tab's sessionStorage, gone when the tab is closed. */
  const TOKEN_KEY = 'sessionmesh.admin.token';

  const $ = (selector) => document.querySelector(selector);
  const figure = (name) => document.querySelector('[data-figure="' + name + '"]');
  const SVG = 'http://www.w3.org/2000/svg';

  const integer = new Intl.NumberFormat('en-US');
  const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

  /**
   * Charts by name: the element, the points, how the latest value and the axis read, and the fixed top of the scale
   * (null: fitted to the points).
   */
  const charts = {
    hit_ratio: { el: $('svg[data-chart="hit_ratio"]'), now: figure('chart_hit_ratio_now'), points: [],
      format: percent, axis: (v) => Math.round(v * 100) + '%', top: 1 },
    requests_per_second: { el: $('svg[data-chart="requests_per_second"]'), now: figure('chart_requests_now'),
      points: [], format: rate, axis: (v) => decimal.format(v) + '/s', top: null },
    master_latency_p99: { el: $('svg[data-chart="master_latency_p99"]'), now: figure('chart_latency_now'),
      points: [], format: micros, axis: axisMicros, top: null },
  };

  let polls = 0;
  let timer = null;
  /** Bumped when the token changes: a poll of an earlier generation still in flight is dropped, not shown. */
  let generation = 0;
  /** The previous poll's request total and when it was read, for requests per second. */
  let previous = null;

  // ---- formats ----

  function percent(ratio) {
    return (ratio * 100).toFixed(2) + '%';
  }

  function rate(perSecond) {
    return decimal.format(perSecond) + '/s';
  }

  function micros(us) {
    if (us < 1000) {
      return integer.format(us) + ' µs';
    }
    if (us < 1000000) {
      return (us / 1000).toFixed(us < 10000 ? 2 : us < 100000 ? 1 : 0) + ' ms'; // three digits at most
    }
    return (us / 1000000).toFixed(2) + ' s';
  }

  /** A round number of microseconds on an axis: 500 µs, 2 ms, 1 s. */
  function axisMicros(us) {
    if (us === 0) {
      return '0';
    }
    if (us < 1000) {
      return decimal.format(us) + ' µs';
    }
    return us < 1000000 ? decimal.format(us / 1000) + ' ms' : decimal.format(us / 1000000) + ' s';
  }

  function bytes(n) {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let i = 0;
    let v = n;
    while (v >= 1024 && i < units.length - 1) {
      v /= 1024;
      i++;
    }
    return (i === 0 ? integer.format(v) : v.toFixed(1)) + ' ' + units[i];
  }

  /** Sets a figure's text and, for a tool, its raw value. */
  function show(name, value, format) {
    const el = figure(name);
    if (!el) {
      return;
    }
    el.textContent = value === undefined || value === null ? '—' : (format || integer.format)(value);
    el.dataset.value = value === undefined || value === null ? '' : String(value);
  }

  function cell(row, text, className) {
    const td = document.createElement('td');
    td.textContent = text;
    if (className) {
      td.className = className;
    }
    row.appendChild(td);
    return td;
  }

  // ---- the token ----

  function token() {
    return sessionStorage.getItem(TOKEN_KEY) || '';
  }

  $('#token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const given = $('#token').value.trim();
    if (given) {
      sessionStorage.setItem(TOKEN_KEY, given);
    } else {
      sessionStorage.removeItem(TOKEN_KEY);
    }
    $('#token').value = '';
    $('#token').placeholder = given ? 'token in use (this tab only)' : 'only if the sidecar has one';
    restart();
  });

  $('#forget').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    $('#token').placeholder = 'only if the sidecar has one';
    restart();
  });

  // ---- fetching ----

  /** A failed admin call, with the HTTP status when there was an answer. */
  class CallFailed extends Error {
    constructor(message, status) {
      super(message);
      this.status = status;
    }
  }

  /** The JSON of GET path; statuses in also (besides 200) are answers too (503 from /admin/health: DOWN). */
  async function getJson(path, also) {
    const headers = { Accept: 'application/json' };
    if (token()) {
      headers.Authorization = 'Bearer ' + token();
    }
    const abort = new AbortController();
    const timeout = setTimeout(() => abort.abort(), FETCH_TIMEOUT_MS);
    let response;
    try {
      response = await fetch(path, { headers, cache: 'no-store', redirect: 'error', signal: abort.signal });
    } catch (e) {
      throw new CallFailed(abort.signal.aborted
        ? 'GET ' + path + ' had no answer in ' + FETCH_TIMEOUT_MS / 1000 + ' s'
        : 'cannot reach the sidecar (GET ' + path + '): ' + e.message, 0);
    } finally {
      clearTimeout(timeout);
    }
    if (response.status !== 200 && !(also || []).includes(response.status)) {
      let detail = '';
      try {
        detail = (await response.json()).message || '';
      } catch (e) {
        detail = '';
      }
      throw new CallFailed('GET ' + path + ' answered ' + response.status + (detail ? ': ' + detail : ''), response.status);
    }
    return response.json();
  }

  async function poll(mine) {
    timer = null;
    let again = true;
    try {
      const [stats, health] = await Promise.all([getJson('/admin/stats'), getJson('/admin/health', [503])]);
      if (mine !== generation) {
        return; // asked with the token before the last change
      }
      render(stats, health, performance.now());
      banner(null);
      document.body.dataset.state = 'ok';
    } catch (e) {
      if (mine !== generation) {
        return;
      }
      if (e.status === 401) {
        // Asking again with the same token would be refused again: wait for one to be typed in.
        again = false;
        document.body.dataset.state = 'unauthorized';
        banner(token()
          ? 'The sidecar refused the admin token (401). Enter the right one above; polling waits until then.'
          : 'This sidecar has an admin token: enter it above to see its figures (401). Polling waits until then.');
        $('#token').focus();
      } else {
        document.body.dataset.state = 'error';
        banner(e.message + '. The figures below are from the last answer; trying again every '
          + POLL_INTERVAL_MS / 1000 + ' s.');
      }
      const status = figure('status');
      status.textContent = '?';
      status.className = 'pill';
    } finally {
      if (mine === generation) {
        polls++;
        document.body.dataset.polls = String(polls);
        if (again) {
          timer = setTimeout(() => poll(mine), POLL_INTERVAL_MS);
        }
      }
    }
  }

  function restart() {
    if (timer !== null) {
      clearTimeout(timer);
    }
    timer = null;
    previous = null; // a rate across the pause would mislead
    generation++;
    poll(generation);
  }

  function banner(message) {
    const el = $('#banner');
    el.textContent = message || '';
    el.hidden = !message;
  }

  // ---- rendering ----

  function render(stats, health, now) {
    const requests = stats.requests || {};
    const total = Object.values(requests).reduce((a, b) => a + b, 0);
    show('hit_ratio', stats.hit_ratio, percent);
    show('hits', stats.hits);
    show('partial_hits', stats.partial_hits);
    show('misses', stats.misses);
    show('requests_total', total);
    if (previous !== null && now > previous.at) {
      const perSecond = Math.max(0, total - previous.total) / ((now - previous.at) / 1000);
      show('requests_per_second', Math.round(perSecond * 10) / 10, rate);
      add('requests_per_second', perSecond);
    }
    previous = { total, at: now };

    const latency = stats.master_latency || {};
    show('master_latency_p50', latency.p50_us, micros);
    show('master_latency_p99', latency.p99_us, micros);
    show('master_latency_p99_kpi', latency.p99_us, micros);
    show('master_latency_p999', latency.p999_us, micros);
    show('master_latency_max', latency.max_us, micros);
    show('master_calls', stats.master_calls);
    add('master_latency_p99', latency.p99_us || 0);
    add('hit_ratio', stats.hit_ratio || 0);

    const cache = stats.cache || {};
    show('cache_entries', cache.entries);
    show('cache_bytes', cache.bytes, bytes);
    show('cache_evictions', cache.evictions);

    const inv = stats.invalidations || {};
    show('invalidation_delay_p50', inv.delay_p50_us, micros);
    show('invalidation_delay_p99', inv.delay_p99_us, micros);
    show('invalidation_delay_max', inv.delay_max_us, micros);
    show('invalidations_received', inv.received);
    if (!inv.received) {
      // the delays of no invalidation read 0: say there were none rather than show a delay of 0
      for (const name of ['invalidation_delay_p50', 'invalidation_delay_p99', 'invalidation_delay_max']) {
        figure(name).textContent = 'none yet';
      }
    }

    const leases = stats.leases || {};
    show('leases_valid', leases.valid);
    show('lease_renewals', leases.renewals);
    show('lease_expiries', leases.expiries);

    requestTable(requests, total);
    errorTable(stats.errors || {});
    masters(health);

    const masterCount = (health.masters || []).length;
    const up = figure('masters_up');
    up.textContent = stats.masters_up + ' / ' + masterCount;
    up.dataset.value = String(stats.masters_up);
    up.className = 'value ' + (stats.masters_up === masterCount ? 'ok' : 'fail');

    const status = figure('status');
    status.textContent = health.status;
    status.className = 'pill ' + (health.status === 'UP' ? 'up' : 'down');
    figure('updated').textContent = 'updated ' + new Date().toLocaleTimeString('en-GB');

    for (const name of Object.keys(charts)) {
      draw(charts[name]);
    }
  }

  function requestTable(requests, total) {
    const body = $('#requests');
    body.replaceChildren();
    const largest = Math.max(1, ...Object.values(requests));
    for (const [op, count] of Object.entries(requests)) {
      const row = document.createElement('tr');
      cell(row, op.replace('_', ' '));
      const n = cell(row, integer.format(count), 'num');
      n.dataset.figure = 'requests.' + op;
      n.dataset.value = String(count);
      const bar = document.createElement('div');
      bar.className = 'meter';
      const fill = document.createElement('span');
      fill.style.width = (100 * count / largest).toFixed(1) + '%';
      bar.appendChild(fill);
      cell(row, '', 'barcell').appendChild(bar);
      body.appendChild(row);
    }
    body.dataset.total = String(total);
  }

  function errorTable(errors) {
    const body = $('#errors');
    body.replaceChildren();
    let total = 0;
    for (const [code, count] of Object.entries(errors)) {
      const row = document.createElement('tr');
      cell(row, code, 'fail');
      const n = cell(row, integer.format(count), 'num');
      n.dataset.figure = 'errors.' + code;
      n.dataset.value = String(count);
      body.appendChild(row);
      total += count;
    }
    if (total === 0) {
      const row = document.createElement('tr');
      cell(row, 'none since start', 'muted').colSpan = 2;
      body.appendChild(row);
    }
    show('errors_total', total);
    figure('errors_total').className = 'value ' + (total === 0 ? 'ok' : 'fail');
  }

  function masters(health) {
    const body = $('#masters');
    body.replaceChildren();
    for (const m of health.masters || []) {
      const lease = m.lease || {};
      const row = document.createElement('tr');
      row.dataset.figure = 'master';
      row.dataset.address = m.address;
      cell(row, m.address);
      const status = cell(row, m.status, m.status === 'UP' ? 'ok' : 'fail');
      status.dataset.figure = 'master_status';
      if (m.error) {
        status.title = m.error;
      }
      cell(row, m.leader === m.address ? 'itself' : m.leader, m.leader === m.address ? 'muted' : '');
      cell(row, integer.format(m.connections), 'num');
      cell(row, lease.valid ? 'valid' : 'not valid', lease.valid ? 'ok' : 'fail').dataset.figure = 'master_lease';
      cell(row, lease.valid ? integer.format(lease.remaining_ms) + ' of ' + integer.format(lease.lease_ms) + ' ms' : '—',
        'num');
      cell(row, integer.format(lease.epoch || 0), 'num');
      cell(row, integer.format(lease.renewals || 0), 'num');
      cell(row, integer.format(lease.expiries || 0), 'num');
      body.appendChild(row);
    }
    const cluster = health.cluster || {};
    figure('routing').textContent = '· routing ' + (cluster.routing || '?')
      + (cluster.epoch !== undefined ? ', map epoch ' + cluster.epoch + ' ' + (cluster.state || '') : '');
  }

  // ---- charts ----

  function add(name, value) {
    const points = charts[name].points;
    points.push(value);
    if (points.length > HISTORY_POINTS) {
      points.shift();
    }
  }

  /** A round number at or above v, for the top of a scale: 1, 2 or 5 times a power of ten. */
  function roundUp(v) {
    if (v <= 0) {
      return 1;
    }
    const power = Math.pow(10, Math.floor(Math.log10(v)));
    for (const step of [1, 2, 5, 10]) {
      if (v <= step * power) {
        return step * power;
      }
    }
    return 10 * power;
  }

  function svg(tag, attributes, text) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attributes)) {
      el.setAttribute(k, String(v));
    }
    if (text !== undefined) {
      el.textContent = text;
    }
    return el;
  }

  /** Draws a chart: grid lines at 0, half and the top of the scale, the line, the area under it, the latest value. */
  function draw(chart) {
    const el = chart.el;
    const points = chart.points;
    // Drawn in the element's own pixels, so that text is never stretched.
    const width = Math.max(el.clientWidth, 200);
    const height = Math.max(el.clientHeight, 80);
    const left = 46;
    const top = 8;
    const bottom = height - 14;
    const scaleTop = chart.top !== null ? chart.top : roundUp(Math.max(...points, 0));
    el.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    el.replaceChildren();
    for (const fraction of [0, 0.5, 1]) {
      const y = bottom - fraction * (bottom - top);
      el.appendChild(svg('line', { class: 'grid', x1: left, x2: width, y1: y, y2: y }));
      el.appendChild(svg('text', { class: 'axis', x: left - 6, y: y + 3, 'text-anchor': 'end' },
        chart.axis(fraction * scaleTop)));
    }
    el.appendChild(svg('text', { class: 'axis', x: width, y: height - 1, 'text-anchor': 'end' },
      'last ' + Math.round(HISTORY_POINTS * POLL_INTERVAL_MS / 60000) + ' min'));
    el.dataset.points = String(points.length);
    if (points.length === 0) {
      el.appendChild(svg('text', { class: 'empty', x: (left + width) / 2, y: (top + bottom) / 2, 'text-anchor': 'middle' },
        'waiting for a second poll'));
      chart.now.textContent = '';
      return;
    }
    const step = (width - left) / (HISTORY_POINTS - 1);
    const xy = points.map((v, i) => {
      const x = width - (points.length - 1 - i) * step;
      const y = bottom - Math.min(v / scaleTop, 1) * (bottom - top);
      return x.toFixed(1) + ',' + y.toFixed(1);
    });
    const firstX = (width - (points.length - 1) * step).toFixed(1);
    el.appendChild(svg('polygon', { class: 'area', points: firstX + ',' + bottom + ' ' + xy.join(' ') + ' ' + width + ',' + bottom }));
    el.appendChild(svg('polyline', { class: 'line', points: xy.join(' ') }));
    chart.now.textContent = chart.format(points[points.length - 1]);
  }

  // ---- start ----

  figure('limits').textContent = 'Polls /admin/stats and /admin/health every ' + POLL_INTERVAL_MS / 1000
    + ' s (a fetch times out after ' + FETCH_TIMEOUT_MS / 1000 + ' s) · charts keep the last ' + HISTORY_POINTS
    + ' polls · latency and hit ratio are since the sidecar started · read-only: the page changes nothing';
  if (token()) {
    $('#token').placeholder = 'token in use (this tab only)';
  }
  for (const name of Object.keys(charts)) {
    draw(charts[name]);
  }
  window.addEventListener('resize', () => Object.values(charts).forEach(draw));
  poll(generation);
})();
