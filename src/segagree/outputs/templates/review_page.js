// segagree review page: renders the embedded JSON with textContent only (nothing in an annotation
// can run), keeps decisions in localStorage under the page's digest, plays each row's span.
(function () {
  'use strict';
  const began = performance.now();
  const root = document.getElementById('segagree-review');
  const data = JSON.parse(document.getElementById('segagree-review-data').textContent);
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };
  const TIME = data.kind === 'time';
  const STORE = 'segagree-review:' + data.digest;
  const LETTERS = TIME ? {n: 'none', e: 'edit'} : {a: 'A', b: 'B', h: 'both', n: 'neither', o: 'other'};
  const media = $('sgr-audio');
  const margin = Number(data.media.margin) || 0;
  const bytes = (b64) => (b64 ? Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)) : null);
  const peaks = bytes(data.media.peaks);
  const pitch = bytes(data.media.pitch); // 0: unvoiced; 1..255 over pitch_hz on a log scale
  const level = bytes(data.media.intensity); // 0: none; 1..255 over intensity_db
  let pairIndex = 0;
  let current = -1; // index into the pair's rows
  let stopAt = null;
  let stopTimer = null;
  let decisions = load();

  // --- storage --------------------------------------------------------------------------------
  function load() {
    try {
      const raw = window.localStorage.getItem(STORE);
      return raw ? JSON.parse(raw) : {};
    } catch (err) {
      return {};
    }
  }
  function save() {
    try {
      window.localStorage.setItem(STORE, JSON.stringify(decisions));
    } catch (err) {
      $('sgr-media-note').textContent = 'decisions cannot be stored in this browser (' + err + '); export them';
    }
  }
  const pair = () => data.pairs[pairIndex];
  const sheetDecisions = () => (decisions[pair().sheet] = decisions[pair().sheet] || {});
  const decisionOf = (id) => sheetDecisions()[String(id)] || null;
  const rowById = (id) => pair().rows.find((r) => String(r.id) === String(id));

  // --- the interface ----------------------------------------------------------------------------
  function rows() {
    return pair().rows.map((r) => ({
      id: r.id, kind: r.kind, start: r.start, end: r.end,
      decision: (decisionOf(r.id) || {}).decision || null,
    }));
  }
  function decide(id, choice, extra) {
    const row = rowById(id);
    if (!row) throw new Error('no row ' + id);
    const entry = Object.assign({}, decisionOf(id) || {});
    if (choice === null || choice === '') {
      delete sheetDecisions()[String(id)];
    } else {
      if (!pair().choices.includes(choice)) throw new Error('not a decision: ' + choice + '; expected ' + pair().choices.join(', '));
      entry.decision = choice;
      if (extra && typeof extra === 'object') Object.assign(entry, extra);
      if (TIME && choice === 'edit' && entry.start === undefined) {
        const m = row.members.find((x) => x);
        if (m) Object.assign(entry, {start: m[0], end: m[1], category: m[2]});
      }
      sheetDecisions()[String(id)] = entry;
    }
    save();
    paintRow(row);
    if (current >= 0 && pair().rows[current] === row) showDetail();
    updateCount();
    return entry;
  }
  function stopWatch() {
    if (stopTimer !== null) clearTimeout(stopTimer);
    stopTimer = null;
  }
  function check() {
    stopTimer = null;
    if (stopAt === null || !media) return;
    if (media.currentTime >= stopAt || media.ended) {
      media.pause();
      stopAt = null;
      return;
    }
    const left = (stopAt - media.currentTime) / (media.playbackRate || 1);
    stopTimer = setTimeout(check, Math.max(4, Math.min(40, left * 1000)));
    drawPlayhead();
  }
  function play(id) {
    const row = rowById(id);
    if (!row) return Promise.reject(new Error('no row ' + id));
    if (!media) return Promise.reject(new Error(data.media.note || 'no recording'));
    if (row.start === null || row.end === null) return Promise.reject(new Error('this row has no time in the annotations'));
    const from = Math.max(0, row.start - margin);
    stopWatch();
    media.pause();
    stopAt = row.end + margin;
    media.currentTime = from;
    const started = media.play();
    return Promise.resolve(started).then(() => {
      check();
      return {id: row.id, from: from, to: stopAt, currentTime: media.currentTime};
    }, (err) => {
      // A newer play() or a pause interrupted this one: not an error of the page.
      if (err && err.name === 'AbortError') return {id: row.id, from: from, to: row.end + margin, interrupted: true};
      throw err;
    });
  }
  function exportDecisions() {
    const p = pair();
    const out = {
      format: 'segagree review decisions', format_version: 1, kind: data.kind, text: data.text,
      page_digest: data.digest, written_by: data.written_by, sheet: p.sheet, annotators: p.annotators,
      settings: data.settings,
    };
    if (TIME) {
      out.sources = p.sources;
      out.rows = p.rows.map((r) => {
        const d = decisionOf(r.id) || {};
        const units = {};
        p.annotators.forEach((a, i) => {
          const m = r.members[i];
          units[a] = m ? {start: m[0], end: m[1], category: m[2], text: m[3]} : null;
        });
        const gold = d.decision === 'edit' ? {start: d.start, end: d.end, category: d.category || ''} : null;
        return {group: r.id, speaker: r.speaker, kind: r.kind, units: units, decision: d.decision || null,
          gold: gold, comment: d.comment || ''};
      });
    } else {
      out.source = p.source;
      out.scheme = data.scheme;
      out.rows = p.rows.map((r) => {
        const d = decisionOf(r.id) || {};
        const row = {row_id: r.id, speaker: r.speaker, op: r.kind, cost: r.cost, type_a: r.types[0], type_b: r.types[1]};
        p.technical.forEach((k, i) => { row[k] = r.t[i]; });
        return Object.assign(row, {decision: d.decision || null, comment: d.comment || ''});
      });
    }
    return JSON.stringify(out, null, 1) + '\n';
  }
  window.segagreeReview = {
    rows: rows, decide: decide, play: play, media: () => media || null, exportDecisions: exportDecisions,
    pairs: () => data.pairs.map((p) => p.sheet), selectPair: selectPair, current: () => currentRow() && currentRow().id,
    go: (id) => { const i = pair().rows.findIndex((r) => String(r.id) === String(id)); if (i >= 0) setCurrent(i); },
  };

  // --- rendering --------------------------------------------------------------------------------
  // milliseconds: phones and forced-aligned boundaries differ by less than 10 ms
  const fmt = (t) => (t === null || t === undefined ? '–' : Number(t).toFixed(3) + ' s');
  const currentRow = () => (current >= 0 ? pair().rows[current] : null);
  function unitLine(side, u, point, has) {
    const units = pair().units[side];
    const unit = units[u];
    const line = el('span', 'sgr-line' + (point ? ' at' : ''));
    const toks = unit[1];
    if (point && point[1] < toks.length - 1) {
      line.appendChild(document.createTextNode(toks.slice(0, point[1] + 1).join(' ') + ' '));
      line.appendChild(el('span', 'sgr-mark', '‖ '));
      line.appendChild(document.createTextNode(toks.slice(point[1] + 1).join(' ')));
    } else {
      line.appendChild(document.createTextNode(toks.join(' ')));
    }
    if (unit[2]) line.appendChild(el('span', point && has ? 'sgr-end' : '', ' ' + unit[2]));
    return line;
  }
  function tokenSide(row, side) {
    const box = el('div', 'sgr-side');
    const name = pair().annotators[side];
    const label = side ? 'B' : 'A';
    box.appendChild(el('div', 'who', label + (name === label ? '' : ' (' + name + ')') + ': ' + row.types[side]));
    const pt = row.points[side];
    if (!pt || pt[0] < 0) {
      box.appendChild(el('span', 'sgr-line', '(no token here)'));
      return box;
    }
    const units = pair().units[side];
    for (let u = pt[0] - 1; u <= pt[0] + 1; u++) {
      if (u < 0 || u >= units.length || units[u][0] !== units[pt[0]][0]) continue;
      box.appendChild(unitLine(side, u, u === pt[0] ? pt : null, row.types[side] !== 'none'));
    }
    return box;
  }
  function timeSide(row) {
    const box = el('div', 'sgr-side sgr-wide');
    pair().annotators.forEach((a, i) => {
      const m = row.members[i];
      box.appendChild(el('span', 'sgr-line', a + ': ' + (m ? fmt(m[0]) + '–' + fmt(m[1]) + ' ' + (m[3] || m[2]) : '(no unit)')));
    });
    return box;
  }
  // The acoustic cues of a row (segagree.scoring.acoustics), as one line; '' without cues.
  function cueText(row) {
    const c = row.cues;
    if (!c) return '';
    const num = (v, digits, unit, sign) => (v === null || v === undefined ? null
      : (sign && v > 0 ? '+' : '') + Number(v).toFixed(digits) + unit);
    const parts = [];
    const put = (label, value) => { if (value !== null) parts.push(label + ' ' + value); };
    put('pause', num(c.pause, 2, ' s'));
    put('gap', c.pause == null ? num(c.gap, 2, ' s') : null);
    put('F0 reset', num(c.f0_reset, 1, ' st', true));
    put('of range', num(c.f0_reset_range, 2, '', true));
    put('intensity', num(c.intensity_reset, 1, ' dB', true));
    if (c.rate_before != null || c.rate_after != null) { // absent (time rows) or null
      parts.push('rate ' + (num(c.rate_before, 1, '') || '–') + ' → ' + (num(c.rate_after, 1, '') || '–') + ' syl/s');
    }
    put('lengthening', num(c.lengthening, 2, '×'));
    put("B's point: pause", num(c.pause_b, 2, ' s'));
    put('F0 reset', num(c.f0_reset_b, 1, ' st', true));
    const text = parts.join(' · ');
    return c.cue_note ? (text ? text + ' (' + c.cue_note + ')' : c.cue_note) : text;
  }
  function rowElement(row, index) {
    const li = el('li', 'sgr-row k-' + row.kind.split(' ')[0]);
    li.dataset.index = String(index);
    const meta = el('div', 'sgr-meta');
    meta.appendChild(el('b', '', '#' + row.id + ' ' + row.kind));
    meta.appendChild(el('small', '', 'cost ' + Number(row.cost).toFixed(3) + (row.speaker ? ' · ' + row.speaker : '')));
    meta.appendChild(el('small', '', fmt(row.start) + ' – ' + fmt(row.end)));
    if (row.cues) meta.appendChild(el('small', 'sgr-cue', cueText(row)));
    li.appendChild(meta);
    if (TIME) {
      li.appendChild(timeSide(row));
    } else {
      li.appendChild(tokenSide(row, 0));
      li.appendChild(tokenSide(row, 1));
    }
    const choices = el('div', 'sgr-choices');
    pair().choices.forEach((c, i) => {
      const b = el('button', '', (i + 1) + ' ' + c);
      b.type = 'button';
      b.dataset.choice = c;
      choices.appendChild(b);
    });
    const clear = el('button', '', '×');
    clear.type = 'button';
    clear.dataset.choice = '';
    clear.title = 'undecided';
    choices.appendChild(clear);
    li.appendChild(choices);
    row._li = li;
    paintRow(row);
    return li;
  }
  function paintRow(row) {
    if (!row._li) return;
    const d = (decisionOf(row.id) || {}).decision || '';
    row._li.classList.toggle('decided', !!d);
    row._li.querySelectorAll('.sgr-choices button').forEach((b) => b.classList.toggle('on', b.dataset.choice === d && d !== ''));
    applyFilter(row);
  }
  function filters() {
    return {kind: $('sgr-kind').value, speaker: $('sgr-speaker').value, type: $('sgr-type').value, state: $('sgr-state').value};
  }
  let filterCache = null; // the filter boxes' values, read once per change (not once per row)
  function shown(row) {
    const f = filterCache || (filterCache = filters());
    const decided = !!(decisionOf(row.id) || {}).decision;
    return (!f.kind || row.kind === f.kind) && (!f.speaker || row.speaker === f.speaker)
      && (!f.type || row.types.includes(f.type))
      && (!f.state || (f.state === 'decided') === decided);
  }
  function applyFilter(row) {
    if (row._li) row._li.hidden = !shown(row);
  }
  function updateCount() {
    const all = pair().rows;
    const visible = all.filter(shown).length;
    const done = all.filter((r) => (decisionOf(r.id) || {}).decision).length;
    $('sgr-count').textContent = visible + ' of ' + all.length + ' rows shown; ' + done + ' decided';
  }
  function fillSelect(id, values) {
    const sel = $(id);
    while (sel.options.length > 1) sel.remove(1);
    values.forEach((v) => { const o = el('option', '', v); o.value = v; sel.appendChild(o); });
  }
  // Rows are built in order: the first ones at once, the rest in chunks after the page has opened
  // (a long text's thousand rows would delay it); a row needed earlier is built on demand.
  let built = 0;
  let building = null;
  function buildUpTo(n) {
    const p = pair();
    const end = Math.min(n, p.rows.length);
    if (built >= end) return;
    const frag = document.createDocumentFragment();
    for (; built < end; built++) frag.appendChild(rowElement(p.rows[built], built));
    $('sgr-rows').appendChild(frag);
  }
  function buildRest() {
    building = null;
    buildUpTo(built + 250);
    if (built < pair().rows.length) building = setTimeout(buildRest, 0);
  }
  function renderPair() {
    const list = $('sgr-rows');
    list.textContent = '';
    const p = pair();
    p.rows.forEach((r) => { r._li = null; });
    built = 0;
    if (building !== null) clearTimeout(building);
    buildUpTo(120);
    building = setTimeout(buildRest, 0);
    const uniq = (xs) => Array.from(new Set(xs)).sort();
    fillSelect('sgr-kind', uniq(p.rows.map((r) => r.kind)));
    fillSelect('sgr-speaker', uniq(p.rows.map((r) => r.speaker)));
    fillSelect('sgr-type', uniq(p.rows.flatMap((r) => r.types)));
    filterCache = null;
    current = -1;
    move(1);
    updateCount();
    renderKeys();
  }
  function selectPair(i) {
    pairIndex = Math.max(0, Math.min(data.pairs.length - 1, Number(i)));
    const names = pair().annotators;
    $('sgr-legend-a').textContent = '▮ ' + (TIME ? names[0] + "'s unit edges" : "A's boundaries") + ' (upper half)';
    $('sgr-legend-b').textContent = '▮ ' + (TIME ? names.slice(1).join(', ') + "'s unit edges" : "B's boundaries") + ' (lower half)';
    $('sgr-pair').value = String(pairIndex);
    renderPair();
  }
  function setCurrent(i) {
    const old = currentRow();
    if (media && old && i !== current && !media.paused) { media.pause(); stopAt = null; stopWatch(); } // its span only
    if (old && old._li) old._li.classList.remove('current');
    buildUpTo(i + 1);
    current = i;
    const row = currentRow();
    if (row && row._li) {
      row._li.classList.add('current');
      // not on opening: a forced layout of every row would delay the page
      if (old && row._li.scrollIntoView) row._li.scrollIntoView({block: 'nearest'});
    }
    showDetail();
  }
  function move(step) {
    const all = pair().rows;
    for (let i = current + step; i >= 0 && i < all.length; i += step) {
      if (shown(all[i])) return setCurrent(i);
    }
    if (current < 0 || (currentRow() && !shown(currentRow()))) setCurrent(all.findIndex(shown));
  }
  function showDetail() {
    const row = currentRow();
    const edit = $('sgr-edit');
    edit.textContent = '';
    if (!row) { $('sgr-current').textContent = 'no row'; $('sgr-cues').textContent = ''; drawStrip(); return; }
    const d = decisionOf(row.id) || {};
    $('sgr-current').textContent = '#' + row.id + ' ' + row.kind + ', ' + fmt(row.start) + ' – ' + fmt(row.end)
      + ' · decision: ' + (d.decision || 'undecided');
    $('sgr-play-note').textContent = !media ? (data.media.note || 'no recording')
      : row.start === null ? 'no time for this row in the annotations: it cannot be played' : '';
    $('sgr-cues').textContent = cueText(row);
    const field = (label, key, value, type) => {
      const lab = el('label', '', label + ' ');
      const input = el('input');
      input.type = type;
      if (type === 'number') input.step = '0.001';
      input.value = value === undefined || value === null ? '' : String(value);
      input.dataset.key = key;
      lab.appendChild(input);
      edit.appendChild(lab);
    };
    field('comment', 'comment', d.comment, 'text');
    if (TIME && d.decision === 'edit') {
      field('gold start', 'start', d.start, 'number');
      field('gold end', 'end', d.end, 'number');
      field('gold category', 'category', d.category, 'text');
    }
    drawStrip();
  }

  // --- the strip: waveform, both annotators' boundaries, the span -------------------------------
  function boundaryTimes(side, speaker) {
    const p = pair();
    if (TIME) {
      const out = [];
      p.rows.forEach((r) => { if (r.speaker === speaker && r.members[side]) out.push(r.members[side][0], r.members[side][1]); });
      return out;
    }
    const s = p.speakers[side].indexOf(speaker);
    return p.units[side].filter((u) => u[0] === s && u[4] !== null).map((u) => u[4]);
  }
  function drawStrip() {
    const canvas = $('sgr-strip');
    const ctx = canvas.getContext && canvas.getContext('2d');
    if (!ctx) return;
    const w = canvas.width, h = canvas.height;
    ctx.clearRect(0, 0, w, h);
    const row = currentRow();
    if (!row || row.start === null) {
      ctx.fillStyle = '#888';
      ctx.fillText(row ? 'no time for this row' : '', 8, 16);
      return;
    }
    const from = Math.max(0, row.start - margin), to = row.end + margin, scale = w / Math.max(to - from, 1e-6);
    const x = (t) => (t - from) * scale;
    ctx.fillStyle = 'rgba(227,198,90,0.35)';
    ctx.fillRect(x(row.start), 0, x(row.end) - x(row.start), h);
    if (peaks) {
      const step = Number(data.media.peak_seconds);
      ctx.fillStyle = '#777';
      for (let px = 0; px < w; px++) {
        const i = Math.floor((from + px / scale) / step);
        const v = i >= 0 && i < peaks.length ? peaks[i] / 255 : 0;
        ctx.fillRect(px, h / 2 - (v * h) / 2, 1, Math.max(1, v * h));
      }
    } else {
      ctx.fillStyle = '#888';
      ctx.fillText(data.media.peaks_note || data.media.note || 'no waveform', 8, 16);
    }
    const n = pair().annotators.length;
    const colours = ['#c0392b', '#1f5fa8', '#2e7d32', '#6a1b9a', '#ef6c00'];
    for (let side = 0; side < n; side++) {
      ctx.fillStyle = colours[side % colours.length];
      const band = h / n;
      boundaryTimes(side, row.speaker).forEach((t) => {
        if (t >= from && t <= to) ctx.fillRect(Math.round(x(t)) - 1, side * band, 2, band);
      });
    }
    drawProsody(row, from, to);
    drawPlayhead();
  }
  // Pitch (dots, log scale) and intensity (line) under the waveform, both annotators' boundaries.
  function drawProsody(row, from, to) {
    const canvas = $('sgr-prosody');
    const ctx = canvas && canvas.getContext && canvas.getContext('2d');
    if (!ctx) return;
    const w = canvas.width, h = canvas.height;
    ctx.clearRect(0, 0, w, h);
    if (!pitch && !level) {
      ctx.fillStyle = '#888';
      ctx.fillText(data.cues || 'no pitch or intensity: the cues were not measured', 8, 16);
      return;
    }
    const step = Number(data.media.peak_seconds), scale = w / Math.max(to - from, 1e-6);
    const x = (t) => (t - from) * scale;
    if (level) {
      ctx.strokeStyle = '#9a9a9a';
      ctx.beginPath();
      for (let px = 0; px < w; px++) {
        const i = Math.floor((from + px / scale) / step);
        const v = i >= 0 && i < level.length ? level[i] : 0;
        if (v) ctx.lineTo(px, h - 2 - ((v - 1) / 254) * (h - 4)); else ctx.moveTo(px, h);
      }
      ctx.stroke();
    }
    if (pitch) {
      ctx.fillStyle = '#0b7a75';
      for (let px = 0; px < w; px++) {
        const i = Math.floor((from + px / scale) / step);
        const v = i >= 0 && i < pitch.length ? pitch[i] : 0;
        if (v) ctx.fillRect(px, h - 3 - ((v - 1) / 254) * (h - 6), 2, 2);
      }
      const hz = data.media.pitch_hz || [];
      ctx.fillStyle = '#0b7a75';
      ctx.fillText(hz.length ? hz[1] + ' Hz' : '', 4, 10);
      ctx.fillText(hz.length ? hz[0] + ' Hz' : '', 4, h - 2);
    }
    const n = pair().annotators.length;
    const colours = ['#c0392b', '#1f5fa8', '#2e7d32', '#6a1b9a', '#ef6c00'];
    for (let side = 0; side < n; side++) {
      ctx.fillStyle = colours[side % colours.length];
      const band = h / n;
      boundaryTimes(side, row.speaker).forEach((t) => {
        if (t >= from && t <= to) ctx.fillRect(Math.round(x(t)) - 1, side * band, 2, band);
      });
    }
  }
  function drawPlayhead() {
    const row = currentRow();
    if (!media || !row || row.start === null) return;
    const canvas = $('sgr-strip');
    const ctx = canvas.getContext('2d');
    const from = Math.max(0, row.start - margin), to = row.end + margin;
    const t = media.currentTime;
    if (t < from || t > to) return;
    ctx.fillStyle = '#000';
    ctx.fillRect(((t - from) / (to - from)) * canvas.width, 0, 1, canvas.height);
  }

  // --- keys and buttons (all through window.segagreeReview) --------------------------------------
  function keyList() {
    const keys = [['j / ↓', 'next row'], ['k / ↑', 'previous row'], ['space / p', 'play the row / pause'],
      ['Enter', 'play the row from its start'],
      ['1…' + pair().choices.length, 'decide: ' + pair().choices.join(', ')]];
    Object.entries(LETTERS).forEach(([k, c]) => keys.push([k, 'decide ' + c]));
    keys.push(['u', 'undecided'], ['x', 'export decisions']);
    return keys;
  }
  function renderKeys() {
    const ul = $('sgr-keylist');
    ul.textContent = '';
    keyList().forEach(([k, what]) => {
      const li = el('li');
      li.appendChild(el('kbd', '', k));
      li.appendChild(document.createTextNode(' ' + what));
      ul.appendChild(li);
    });
  }
  function togglePlay() {
    const api = window.segagreeReview;
    const row = currentRow();
    if (!media || !row) return;
    if (!media.paused) { media.pause(); stopAt = null; stopWatch(); return; }
    api.play(row.id).catch((err) => { $('sgr-play-note').textContent = String(err.message || err); });
  }
  function download() {
    const blob = new Blob([window.segagreeReview.exportDecisions()], {type: 'application/json'});
    const a = el('a');
    a.href = URL['createObjectURL'](blob);
    a.download = (data.text || 'review') + '.decisions.json';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL['revokeObjectURL'](a.href), 1000);
  }
  document.addEventListener('keydown', (ev) => {
    const tag = (ev.target && ev.target.tagName) || '';
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const api = window.segagreeReview;
    const row = currentRow();
    const k = ev.key;
    let choice;
    if (k === 'j' || k === 'ArrowDown') move(1);
    else if (k === 'k' || k === 'ArrowUp') move(-1);
    else if (k === ' ' || k === 'p') togglePlay();
    else if (k === 'Enter' && row && media) api.play(row.id).catch((err) => { $('sgr-play-note').textContent = String(err.message || err); });
    else if (k === 'x') download();
    else if (row && k === 'u') api.decide(row.id, null);
    else if (row && /^[1-9]$/.test(k) && (choice = pair().choices[Number(k) - 1]) !== undefined) api.decide(row.id, choice);
    else if (row && LETTERS[k]) api.decide(row.id, LETTERS[k]);
    else return;
    ev.preventDefault();
  });
  $('sgr-rows').addEventListener('click', (ev) => {
    const li = ev.target.closest('.sgr-row');
    if (!li) return;
    const row = pair().rows[Number(li.dataset.index)];
    setCurrent(Number(li.dataset.index));
    if (ev.target.dataset && ev.target.dataset.choice !== undefined) window.segagreeReview.decide(row.id, ev.target.dataset.choice || null);
  });
  $('sgr-edit').addEventListener('change', (ev) => {
    const row = currentRow();
    const key = ev.target.dataset && ev.target.dataset.key;
    if (!row || !key) return;
    const d = decisionOf(row.id) || {};
    const value = ev.target.type === 'number' ? Number(ev.target.value) : ev.target.value;
    if (!d.decision && key === 'comment') { sheetDecisions()[String(row.id)] = {comment: value}; save(); return; }
    window.segagreeReview.decide(row.id, d.decision || null, {[key]: value});
  });
  $('sgr-play').addEventListener('click', togglePlay);
  $('sgr-export').addEventListener('click', download);
  ['sgr-kind', 'sgr-speaker', 'sgr-type', 'sgr-state'].forEach((id) => $(id).addEventListener('change', () => {
    filterCache = null;
    pair().rows.forEach(applyFilter);
    updateCount();
    if (!currentRow() || !shown(currentRow())) { current = -1; move(1); }
  }));
  $('sgr-pair').addEventListener('change', (ev) => selectPair(ev.target.value));
  if (media) {
    media.addEventListener('timeupdate', () => {
      if (stopAt !== null && media.currentTime >= stopAt) { media.pause(); stopAt = null; stopWatch(); }
      drawStrip();
    });
    media.addEventListener('error', () => {
      $('sgr-media-note').textContent = 'the recording ' + data.media.name + ' cannot be played here (missing, or a format this browser lacks)';
    });
  }

  // --- start ------------------------------------------------------------------------------------
  data.pairs.forEach((p, i) => { const o = el('option', '', p.annotators.join(' vs ')); o.value = String(i); $('sgr-pair').appendChild(o); });
  $('sgr-pair').parentNode.hidden = data.pairs.length < 2;
  root.querySelector('.sgr-about').textContent = (TIME ? 'Aligned groups of gamma\'s best alignment' : 'Operations of S_f\'s alignment')
    + ' of text ' + data.text + '; ' + data.written_by + '; page digest ' + data.digest
    + (data.media.src ? '; recording ' + data.media.name + ' (found by ' + data.media.found_by + ', margin ' + margin + ' s)' : '');
  $('sgr-media-note').textContent = data.media.src ? (data.media.peaks_note || '') : (data.media.note || 'no recording');
  selectPair(0);
  window.segagreeReview.renderMs = performance.now() - began; // the script's own work: parse, rows, strip
})();
