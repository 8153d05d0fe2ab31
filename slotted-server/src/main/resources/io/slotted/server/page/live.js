// The live page: polls GET /v1/live every second and draws what it answers. The token, when the
// service has tokens, is asked for once, kept in this tab's session storage and sent in the
// Authorization header; it never goes into a URL. Everything a client named (ids, types) is shown
// through textContent, never parsed as HTML.
'use strict';

(function () {
  const TOKEN_KEY = 'slotted.token';
  const POLL_MILLIS = 1000;
  const CHART_HEIGHT = 200;
  const $ = (id) => document.getElementById(id);
  const number = new Intl.NumberFormat('en-US');
  const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
  const millis = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
  let charts = null;
  let polling = null;

  function authHeaders() {
    const token = sessionStorage.getItem(TOKEN_KEY);
    return token ? { Authorization: 'Bearer ' + token } : {};
  }

  function showStatus(text, isError) {
    const status = $('status');
    status.textContent = text;
    status.classList.toggle('error', Boolean(isError));
  }

  async function errorMessage(response) {
    try {
      const body = await response.json();
      return body.error && body.error.message ? body.error.message : response.statusText;
    } catch (e) {
      return response.statusText;
    }
  }

  function schedule() {
    clearTimeout(polling);
    polling = setTimeout(poll, POLL_MILLIS);
  }

  async function poll() {
    let response;
    const sent = sessionStorage.getItem(TOKEN_KEY);
    try {
      response = await fetch('/v1/live', { headers: authHeaders(), cache: 'no-store' });
    } catch (e) {
      showStatus('The service does not answer (' + e.message + '); asking again every second.', true);
      schedule();
      return;
    }
    if (response.status === 401 || response.status === 403) {
      askForToken(sent, await errorMessage(response));
      return;
    }
    if (!response.ok) {
      showStatus('The service answered ' + response.status + ': ' + await errorMessage(response), true);
      schedule();
      return;
    }
    render(await response.json());
    schedule();
  }

  // Forgets the token the refused request carried; a request sent without one leaves alone a
  // token entered while it was on its way.
  function askForToken(sent, problem) {
    if (sent !== null && sessionStorage.getItem(TOKEN_KEY) === sent) {
      sessionStorage.removeItem(TOKEN_KEY);
    } else if (sessionStorage.getItem(TOKEN_KEY) !== null) {
      poll();
      return;
    }
    $('forget').hidden = true;
    $('token-form').hidden = false;
    $('token-problem').textContent = sent !== null ? 'That token was refused: ' + problem : '';
    showStatus('Waiting for a token.', true);
    $('token').focus();
  }

  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, $('token').value.trim());
    $('token').value = '';
    $('token-form').hidden = true;
    $('forget').hidden = false;
    showStatus('Reading…', false);
    poll();
  });

  $('forget').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    $('forget').hidden = true;
    poll();
  });

  // ---------------------------------------------------------------- drawing

  function last(values) {
    return values.length ? values[values.length - 1] : 0;
  }

  function render(report) {
    const s = report.seconds;
    $('rate').textContent = number.format(last(s.increments));
    $('flush-rate').textContent = number.format(last(s.flushes));
    $('flush-size').textContent = decimal.format(last(s.meanFlushSize));
    $('p99').textContent = millis.format(last(s.p99)) + ' ms';
    $('queue').textContent = number.format(report.queue.depth) + ' / ' + number.format(report.queue.capacity);
    $('connections').textContent = 'http ' + report.connections.http
        + (report.connections.resp === null ? '' : ' · resp ' + report.connections.resp);
    $('updated').textContent = 'sampled at ' + report.at + ' · ' + report.mode + ' mode';
    drawCharts(s);
    fillTypes(report.types);
    const read = $('types-read');
    read.dataset.at = report.typesReadAt || '';
    read.textContent = report.typesReadAt ? 'Read from the database at ' + report.typesReadAt.substring(11, 19)
        + ' UTC; again every 5 seconds while this page is open.' : 'Reading from the database…';
    fillTop(report.top);
    fillErrors(report.errors);
    fillTotals(report.totals);
    showStatus(report.problem ? report.problem : 'Live: updated every second.', Boolean(report.problem));
  }

  function chartWidth(id) {
    return Math.max(240, $(id).clientWidth);
  }

  function makeChart(id, series, data) {
    return new uPlot({
      width: chartWidth(id),
      height: CHART_HEIGHT,
      scales: { x: { time: true } },
      legend: { live: false },
      series: [{}].concat(series),
      axes: [{}, { size: 60 }],
    }, data, $(id));
  }

  function drawCharts(s) {
    const xs = s.at.map((at) => at / 1000);
    const data = {
      rates: [xs, s.increments, s.flushes],
      flush: [xs, s.meanFlushSize],
      latency: [xs, s.p50, s.p90, s.p99],
    };
    if (typeof uPlot === 'undefined') {
      return;
    }
    if (charts === null) {
      charts = {
        rates: makeChart('chart-rates', [
          { label: 'increments/s', stroke: '#2a62c9', width: 2 },
          { label: 'flushes/s', stroke: '#e07a10', width: 1.5 },
        ], data.rates),
        flush: makeChart('chart-flush', [
          { label: 'increments per flush', stroke: '#2d8a4e', width: 2 },
        ], data.flush),
        latency: makeChart('chart-latency', [
          { label: 'p50', stroke: '#2d8a4e', width: 1.5 },
          { label: 'p90', stroke: '#e07a10', width: 1.5 },
          { label: 'p99', stroke: '#b3261e', width: 2 },
        ], data.latency),
      };
      window.addEventListener('resize', () => {
        charts.rates.setSize({ width: chartWidth('chart-rates'), height: CHART_HEIGHT });
        charts.flush.setSize({ width: chartWidth('chart-flush'), height: CHART_HEIGHT });
        charts.latency.setSize({ width: chartWidth('chart-latency'), height: CHART_HEIGHT });
      });
      return;
    }
    charts.rates.setData(data.rates);
    charts.flush.setData(data.flush);
    charts.latency.setData(data.latency);
  }

  function cell(row, text, className) {
    const td = document.createElement('td');
    td.textContent = text === null || text === undefined ? '—' : String(text);
    if (className) {
      td.className = className;
    }
    row.appendChild(td);
    return td;
  }

  function replaceRows(tbody, rows, columns, empty) {
    tbody.replaceChildren();
    if (rows.length === 0) {
      const tr = tbody.insertRow();
      const td = cell(tr, empty, 'muted');
      td.colSpan = columns;
      return;
    }
    rows.forEach((fill) => fill(tbody.insertRow()));
  }

  function limits(type) {
    if (type.min === null && type.max === null) {
      return null;
    }
    return (type.min === null ? '' : number.format(type.min)) + ' .. '
        + (type.max === null ? '' : number.format(type.max));
  }

  function fillTypes(types) {
    replaceRows($('types').tBodies[0], types.map((type) => (tr) => {
      tr.dataset.type = type.recordType;
      cell(tr, type.recordType, 'number');
      cell(tr, type.name);
      cell(tr, type.slots, 'number');
      cell(tr, limits(type));
      cell(tr, type.owner === null ? null : type.owner + ' (' + type.ownerMode + ')');
      cell(tr, type.rollUpLagSeconds === null ? null : decimal.format(type.rollUpLagSeconds) + ' s', 'number');
      cell(tr, type.buckets);
    }), 7, 'no types yet: they are read every few seconds');
  }

  function fillTop(tops) {
    const box = $('top');
    box.replaceChildren();
    if (tops.length === 0) {
      const p = document.createElement('p');
      p.className = 'muted';
      p.textContent = 'No type keeps time buckets: start the service with --buckets TYPE=hour:30d to see its top counters.';
      box.appendChild(p);
      return;
    }
    tops.forEach((top) => {
      const div = document.createElement('div');
      div.className = 'top';
      div.dataset.type = top.recordType;
      div.dataset.from = top.from;
      const h3 = document.createElement('h3');
      h3.textContent = (top.name === null ? 'type ' + top.recordType : top.name) + ' since '
          + top.from.substring(11, 16) + ' UTC';
      div.appendChild(h3);
      const table = document.createElement('table');
      const head = table.createTHead().insertRow();
      ['id', 'increments'].forEach((title) => {
        const th = document.createElement('th');
        th.textContent = title;
        head.appendChild(th);
      });
      head.lastChild.className = 'number';
      replaceRows(table.createTBody(), top.counters.map((counter) => (tr) => {
        tr.dataset.id = counter.id;
        tr.dataset.count = counter.count;
        cell(tr, counter.id);
        cell(tr, number.format(counter.count), 'number');
      }), 2, 'nothing counted in the window');
      div.appendChild(table);
      box.appendChild(div);
    });
  }

  function fillErrors(errors) {
    replaceRows($('errors').tBodies[0], errors.map((error) => (tr) => {
      cell(tr, error.frontEnd);
      cell(tr, error.code);
      cell(tr, number.format(error.count), 'number');
    }), 3, 'no errors');
  }

  function fillTotals(totals) {
    const names = {
      incrementsApplied: 'increments applied',
      flushes: 'flushes',
      retries: 'retries',
      outcomesUnknown: 'commit outcomes lost with a connection',
      incrementsDropped: 'buffered increments dropped',
    };
    const dl = $('totals');
    dl.replaceChildren();
    Object.keys(names).forEach((key) => {
      const dt = document.createElement('dt');
      dt.textContent = names[key];
      const dd = document.createElement('dd');
      dd.id = 'total-' + key;
      dd.textContent = number.format(totals[key]);
      dl.append(dt, dd);
    });
  }

  // ---------------------------------------------------------------- the doctor, on demand

  function item(list, text, className) {
    const li = document.createElement('li');
    li.textContent = text;
    if (className) {
      li.className = className;
    }
    list.appendChild(li);
  }

  function showDoctor(report) {
    const box = $('doctor');
    box.replaceChildren();
    const summary = document.createElement('p');
    summary.textContent = report.database + ': ' + report.samples + ' samples over '
        + report.window_millis + ' ms.';
    box.appendChild(summary);
    const list = document.createElement('ul');
    report.hot_rows.forEach((row) => item(list, 'Hot row in ' + row.table + ' ' + JSON.stringify(row.key) + ': '
        + row.waits + ' waits, longest ' + row.longest_wait_millis + ' ms. ' + row.advice, 'bad'));
    if (report.deadlocks > 0) {
      item(list, report.deadlocks + ' deadlocks in the window.', 'bad');
    }
    report.checks.filter((check) => !check.ok).forEach((check) => item(list, check.name + ' = ' + check.value
        + ': ' + check.why + ' ' + check.advice, 'bad'));
    report.missing_grants.forEach((grant) => item(list, grant, 'bad'));
    report.notes.forEach((note) => item(list, note));
    if (list.children.length === 0) {
      item(list, 'Nothing to fix: every check passed and no row was waited for.');
    }
    box.appendChild(list);
  }

  $('doctor-run').addEventListener('click', async () => {
    const button = $('doctor-run');
    button.disabled = true;
    $('doctor').textContent = 'Watching lock waits for five seconds…';
    try {
      const response = await fetch('/v1/doctor?watch=5s', { headers: authHeaders(), cache: 'no-store' });
      if (response.ok) {
        showDoctor(await response.json());
      } else {
        $('doctor').textContent = 'The doctor answered ' + response.status + ': ' + await errorMessage(response);
      }
    } catch (e) {
      $('doctor').textContent = 'The service does not answer: ' + e.message;
    } finally {
      button.disabled = false;
    }
  });

  $('forget').hidden = sessionStorage.getItem(TOKEN_KEY) === null;
  poll();
})();
