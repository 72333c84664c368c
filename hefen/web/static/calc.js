// hefen calculator: build a hand by tapping tiles (or from a photo through
// POST /api/recognize), score it with POST /api/score.
"use strict";
(function () {
  const root = document.getElementById("calc");
  if (!root) return;
  const data = JSON.parse(document.getElementById("calc-data").textContent);
  const M = data.msg;
  const lang = root.dataset.lang;
  // every ruleset's descriptor (Ruleset.describe): the script never names a ruleset
  const R = data.rulesets;
  const ORDER = [];
  for (const s of "mps") for (let r = 1; r <= 9; r++) ORDER.push(r + s);
  ORDER.push("E", "S", "W", "N", "C", "F", "P");
  for (let r = 1; r <= 8; r++) ORDER.push(r + "h");
  const rank = (t) => ORDER.indexOf(t);

  const st = {
    rules: root.dataset.rules,
    hand: [], melds: [], win: null, flowers: [],
    // tiles read from a photo: {tile, confidence, alternatives, role: hand|win|flower,
    // look, read (the tile as first read)}, and the sha256 of the model that read them
    photo: [], photoModel: null,
    mode: "tile", history: [],
  };
  const $ = (id) => document.getElementById(id);
  const desc = () => R[st.rules];
  const unitName = (unit) => {
    for (const k in R) if (R[k].unit === unit) return R[k].unit_name;
    return unit;
  };

  function svgOf(code, back) {
    if (back) return $("tile-back").innerHTML;
    const b = document.querySelector('#palette .pt[data-tile="' + code + '"]');
    return b ? b.innerHTML : code;
  }
  function fmt(s, vars) {
    return s.replace(/\{(\w+)\}/g, (_, k) => String(vars[k]));
  }
  const isBonus = (t) => t.endsWith("h");
  const held = () => st.hand.length + 3 * st.melds.length;
  const need = () => desc().concealed_size;
  const copies = (t) =>
    st.hand.filter((x) => x === t).length + (st.win === t ? 1 : 0) +
    st.melds.reduce((n, m) => n + m.tiles.filter((x) => x === t).length, 0);

  function snapshot() {
    st.history.push(JSON.stringify({ hand: st.hand, melds: st.melds, win: st.win, flowers: st.flowers, photo: st.photo }));
    if (st.history.length > 100) st.history.shift();
  }
  function flash(text) {
    const el = $("status");
    el.textContent = text;
    el.classList.add("warn");
  }

  function tap(t) {
    if (isBonus(t)) {
      if (st.flowers.includes(t)) return;
      snapshot(); st.flowers.push(t); st.flowers.sort((a, b) => rank(a) - rank(b));
      return changed();
    }
    const mode = st.mode;
    if (mode === "win") {
      snapshot(); st.win = t; setMode("tile"); return changed();
    }
    if (mode === "tile") {
      if (copies(t) >= 4) return flash("4 × " + t);
      if (held() < need()) { snapshot(); st.hand.push(t); }
      else if (st.win === null) { snapshot(); st.win = t; }
      else return flash(M.full);
      st.hand.sort((a, b) => rank(a) - rank(b));
      return changed();
    }
    if (held() + 3 > need()) return flash(M.full);
    let tiles;
    if (mode === "chow") {
      const n = parseInt(t[0], 10);
      if (!(t.length === 2 && "mps".includes(t[1]) && n <= 7)) return flash(M.chow_needs);
      tiles = [t, n + 1 + t[1], n + 2 + t[1]];
    } else if (mode === "pung") tiles = [t, t, t];
    else tiles = [t, t, t, t];
    snapshot();
    st.melds.push({ kind: mode === "ckong" ? "kong" : mode, tiles: tiles, concealed: mode === "ckong" });
    changed();
  }

  // ---------------------------------------------------------------- photo
  const LOW = 0.8;  // below this confidence a recognised tile is marked for checking
  const MARGIN = 0.9;  // ... and so is one whose runner-up comes this close (8s read 6s at 0.92)
  const runnerUp = (e) => (e.alternatives && e.alternatives.length ? e.alternatives[0][1] : 0);
  const unsure = (e) => !e.checked && (e.confidence < LOW || e.confidence - runnerUp(e) < MARGIN);
  const plural = (one, many, n) => fmt(n === 1 ? one : many, { n: n });
  // a tile's name in the page's language (M.tile_words from the catalogue)
  function tileName(code) {
    const w = M.tile_words;
    if (w.honors[code]) return w.honors[code];
    if (code.length === 2 && w.suits[code[1]]) return fmt(w.suits[code[1]], { n: code[0] });
    return code;
  }
  // The player's own set, remembered on this device (hefen.photo.memory's file format):
  // each tile the player corrects is taught with what it looked like to the model, so the
  // next photo reads that tile as corrected.
  const MEMORY_KEY = "hefen.tileMemory", MEMORY_MAX = 120;
  function loadMemory() {
    try {
      const m = JSON.parse(localStorage.getItem(MEMORY_KEY) || "null");
      return m && Array.isArray(m.tiles) && m.tiles.length ? m : null;
    } catch (e) { return null; }
  }
  function saveMemory(m) {
    try {
      if (m) localStorage.setItem(MEMORY_KEY, JSON.stringify(m));
      else localStorage.removeItem(MEMORY_KEY);
    } catch (e) { /* storage full or off: the memory is only a help */ }
    showMemory();
  }
  function remember(code, read, look, model) {
    let m = loadMemory();
    if (!m || m.model !== model) m = { format: "hefen-tile-memory", version: 1, model: model, tiles: [] };
    m.tiles = m.tiles.filter((t) => t.features !== look);
    m.tiles.push({ tile: code, was: read, features: look });
    m.tiles = m.tiles.slice(-MEMORY_MAX);
    saveMemory(m);
  }
  function showMemory() {
    const m = loadMemory();
    $("photo-memory").hidden = !m;
    if (m) $("memory-count").textContent = plural(M.memory_count_one, M.memory_count, m.tiles.length);
  }
  $("btn-forget").addEventListener("click", () => saveMemory(null));
  showMemory();
  // The photo entries of each role, matched to the tiles now in the hand by code
  // (the least sure first), so that edits by hand leave the others in place.
  function photoPool(role) {
    const pool = {};
    st.photo.filter((e) => e.role === role)
      .sort((a, b) => a.confidence - b.confidence)
      .forEach((e) => { (pool[e.tile] = pool[e.tile] || []).push(e); });
    return (code) => (pool[code] && pool[code].length ? pool[code].shift() : null);
  }
  // The hand as the server read the photo (hefen.photo.hand: the concealed row is the
  // longest group that is no chow, pung or kong, melds apart from it are exposed, bonus
  // tiles are flowers); each recognised tile's role ties it to the tile shown.
  function fillFromPhoto(rec) {
    const rd = rec.reading;
    if (rd.error) { $("photo-note").hidden = true; flash(rd.error); return; }
    snapshot();
    st.hand = rd.hand.slice(); st.win = rd.win_tile; st.flowers = rd.flowers.slice();
    st.melds = rd.melds.map((m) => ({ kind: m.kind, tiles: m.tiles.slice(), concealed: m.concealed }));
    st.photo = [];
    st.photoModel = rec.model;  // the model that read this photo, for teaching its tiles
    rec.groups.forEach((g, gi) => g.tiles.forEach((t, i) => {
      const role = rd.roles[gi][i];
      if (role === "hand" || role === "win" || role === "flower") {
        st.photo.push({
          tile: t.tile, confidence: t.confidence, alternatives: t.alternatives, role: role,
          look: t.look, read: t.tile,
        });
      }
    }));
    setMode("tile");
    changed();
    const low = st.photo.filter(unsure).length;
    // groups the server left out as more tiles than a hand holds (things beside the tiles)
    const aside = (rec.set_aside || []).reduce((n, g) => n + g.tiles.length, 0);
    const note = $("photo-note");
    note.textContent = plural(M.photo_done_one, M.photo_done, rec.tiles.length) +
      (low ? " · " + plural(M.photo_check_one, M.photo_check, low) : "") +
      (aside ? " · " + plural(M.photo_set_aside_one, M.photo_set_aside, aside) : "");
    note.hidden = false;
  }
  // take the tile at `where` ({role, index}) out of the hand
  function takeOut(where) {
    if (where.role === "win") st.win = null;
    else if (where.role === "flower") st.flowers.splice(where.index, 1);
    else st.hand.splice(where.index, 1);
  }
  function replaceTile(e, where, code) {
    snapshot();
    takeOut(where);
    const old = e.tile;
    if (isBonus(code)) {
      if (!st.flowers.includes(code)) st.flowers.push(code);
      e.role = "flower";
    } else if (where.role === "win") st.win = code;
    else { st.hand.push(code); e.role = "hand"; }
    if (code !== old) {
      e.alternatives = [[old, e.confidence]].concat(e.alternatives.filter((a) => a[0] !== code));
      if (e.look && st.photoModel) remember(code, e.read, e.look, st.photoModel);
    }
    e.tile = code;
    e.confidence = 1;  // the player's own choice
    e.checked = true;
    st.hand.sort((a, b) => rank(a) - rank(b));
    st.flowers.sort((a, b) => rank(a) - rank(b));
    changed();
  }
  let picking = null;
  function openPicker(e, where) {
    picking = { entry: e, where: where };
    $("pick-tile").innerHTML = svgOf(e.tile);
    $("pick-conf").textContent = tileName(e.tile) + (e.checked ? "" : " · " + M.sure + ": " + Math.round(e.confidence * 100) + "%") +
      (!e.checked && unsure(e) && e.confidence >= LOW ? " · " + fmt(M.close_call, { tile: tileName(e.alternatives[0][0]) }) : "");
    const alts = $("pick-alts");
    alts.textContent = "";
    for (const [code, p] of e.alternatives) {
      const b = document.createElement("button");
      b.type = "button"; b.className = "pt"; b.dataset.tile = code;
      b.innerHTML = svgOf(code);
      b.setAttribute("aria-label", tileName(code));
      const pct = document.createElement("span");
      pct.textContent = tileName(code) + " " + Math.round(p * 100) + "%";
      b.appendChild(pct);
      alts.appendChild(b);
    }
    const all = $("pick-all");
    if (!all.childElementCount) {
      document.querySelectorAll("#palette .prow").forEach((row) => all.appendChild(row.cloneNode(true)));
    }
    const dlg = $("photo-pick");
    if (dlg.showModal) dlg.showModal(); else dlg.setAttribute("open", "");
  }
  function closePicker() {
    picking = null;
    const dlg = $("photo-pick");
    if (dlg.close) dlg.close(); else dlg.removeAttribute("open");
  }
  $("photo-pick").addEventListener("click", (ev) => {
    if (ev.target === $("photo-pick")) { closePicker(); return; }  // the backdrop
    const b = ev.target.closest(".pt");
    if (b && picking) {
      const p = picking;
      closePicker();
      replaceTile(p.entry, p.where, b.dataset.tile);
    }
  });
  $("photo-pick").addEventListener("close", () => { picking = null; });
  $("pick-cancel").addEventListener("click", closePicker);
  $("pick-remove").addEventListener("click", () => {
    if (!picking) return;
    const p = picking;
    closePicker();
    snapshot();
    takeOut(p.where);
    st.photo.splice(st.photo.indexOf(p.entry), 1);
    changed();
  });
  $("photo-file").addEventListener("change", async (ev) => {
    const input = ev.target;
    const file = input.files && input.files[0];
    if (!file) return;
    const note = $("photo-note");
    note.hidden = false;
    note.textContent = M.photo_reading;
    const send = (memory) => {
      const form = new FormData();
      form.append("file", file);
      form.append("looks", "1");
      if (memory) form.append("memory", JSON.stringify(memory));
      return fetch("/api/recognize", { method: "POST", body: form });
    };
    const memory = loadMemory();
    let r, res;
    try {
      r = await send(memory);
      res = await r.json().catch(() => ({}));
      if (!r.ok && memory && r.status === 422) {
        // a memory the server refuses (made with another model) is forgotten
        const again = await send(null);
        const resAgain = await again.json().catch(() => ({}));
        if (again.ok) { saveMemory(null); r = again; res = resAgain; }
      }
    } catch (e) {
      note.hidden = true;
      flash(M.network);
      return;
    } finally {
      input.value = "";  // the same photo may be chosen again
    }
    if (!r.ok) { note.hidden = true; flash(res.error || M.photo_failed); return; }
    fillFromPhoto(res);
  });

  function renderHand() {
    const box = $("hand");
    box.textContent = "";
    const add = (html, cls, onclick, label) => {
      const b = document.createElement("button");
      b.type = "button"; b.className = cls; b.innerHTML = html;
      if (label) b.setAttribute("aria-label", label);
      b.addEventListener("click", onclick);
      box.appendChild(b);
      return b;
    };
    // a tile read from a photo opens the replace sheet; others are taken out by a tap
    const tileButton = (t, cls, where, e, remove, label) => {
      if (!e) return add(svgOf(t), cls, remove, label);
      const b = add(svgOf(t), cls + " rec" + (unsure(e) ? " low" : ""),
        () => openPicker(e, where), tileName(t) + " " + Math.round(e.confidence * 100) + "%");
      b.dataset.tile = t;
      return b;
    };
    const ofHand = photoPool("hand"), ofWin = photoPool("win"), ofFlower = photoPool("flower");
    st.hand.forEach((t, i) => tileButton(t, "ht", { role: "hand", index: i }, ofHand(t),
      () => { snapshot(); st.hand.splice(i, 1); changed(); }));
    if (st.win) tileButton(st.win, "ht win", { role: "win" }, ofWin(st.win),
      () => { snapshot(); st.win = null; changed(); }, M.need_win);
    st.melds.forEach((m, i) => {
      const html = m.tiles.map((t, j) => svgOf(t, m.concealed && (j === 0 || j === 3))).join("");
      const kind = m.concealed ? "ckong" : m.kind;
      add(html, "meld", () => { snapshot(); st.melds.splice(i, 1); changed(); }, M.kinds[kind]);
    });
    st.flowers.forEach((t, i) => tileButton(t, "ht flower", { role: "flower", index: i }, ofFlower(t),
      () => { snapshot(); st.flowers.splice(i, 1); changed(); }));
    $("count").textContent = fmt(M.tiles, { n: held() + (st.win ? 1 : 0), need: need() + 1 });
  }

  // the winner and the discarder at a table: the discarder is asked, never
  // assumed (null: a self-draw, chosen with the self-draw button)
  function tableSeats() {
    const winner = parseInt($("t_winner").value, 10);
    const d = $("t_discarder").value;
    const discarder = currentWin() === "discard" && d !== "" ? parseInt(d, 10) : null;
    return { winner: winner, discarder: discarder };
  }
  function seatsProblem() {
    if (currentWin() !== "discard") return null;
    const s = tableSeats();
    if (s.discarder === null) return M.pick_discarder;
    if (s.discarder === s.winner) return M.same_seat;
    return null;
  }
  const switchOn = (el) => el.checked && desc().context_switches.includes(el.dataset.switch);
  function readContext() {
    const ctx = {};
    const on = document.querySelector('#win-kind [aria-checked="true"]');
    ctx.win = on ? on.dataset.win : "discard";
    if (data.table) {  // the table knows the winds, the dealer and the streak
      const t = data.table, s = tableSeats(), winds = t.next.seat_winds;
      ctx.seat_wind = winds[s.winner];
      ctx.round_wind = t.next.round_wind;
      ctx.dealer = winds[t.next.dealer];
      if (desc().scores_dealer_streak) ctx.dealer_streak = t.next.dealer_streak;
      if (s.discarder !== null && s.discarder !== s.winner) ctx.discarder = winds[s.discarder];
      document.querySelectorAll("#switches input[data-switch]").forEach((el) => {
        if (switchOn(el)) ctx[el.dataset.switch] = true;
      });
      if (hasField("declared_ready") && $("declared_ready").value) ctx.declared_ready = $("declared_ready").value;
      return ctx;
    }
    ctx.seat_wind = $("seat_wind").value;
    ctx.round_wind = $("round_wind").value;
    const disc = $("discarder").value;
    if (disc && ctx.win === "discard") ctx.discarder = disc;
    if (hasField("dealer")) ctx.dealer = $("dealer").value;
    if (hasField("dealer_streak")) ctx.dealer_streak = parseInt($("dealer_streak").value, 10) || 0;
    if (hasField("declared_ready") && $("declared_ready").value) ctx.declared_ready = $("declared_ready").value;
    document.querySelectorAll("#switches input[data-switch]").forEach((el) => {
      if (switchOn(el)) ctx[el.dataset.switch] = true;
    });
    return ctx;
  }
  // only the table's own options (settings.options), as the table scores them
  function readOptions() {
    if (data.table) return Object.assign({}, data.table.settings.options);
    return hefen.readOptions($("settings"), st.rules);
  }
  const hasField = (name) => desc().context_fields.includes(name);
  let shownRules = null;
  function applyRules() {
    const d = desc();
    document.querySelectorAll("#settings [data-ruleset]").forEach((el) => {
      el.hidden = el.dataset.ruleset !== st.rules;
    });
    document.querySelectorAll("[data-field]").forEach((el) => { el.hidden = !hasField(el.dataset.field); });
    document.querySelectorAll("[data-switch-chip]").forEach((el) => {
      el.hidden = !d.context_switches.includes(el.dataset.switchChip);
    });
    if (shownRules !== st.rules) {  // the declared-ready choices of this ruleset
      shownRules = st.rules;
      const sel = $("declared_ready");
      sel.querySelectorAll("option[data-ready]").forEach((o) => o.remove());
      for (const v of d.declared_ready) {
        const o = document.createElement("option");
        o.value = v; o.dataset.ready = "1"; o.textContent = d.ready_labels[v] || v;
        sel.appendChild(o);
      }
    }
    document.querySelectorAll("#rules-picker button").forEach((b) => {
      b.setAttribute("aria-checked", b.dataset.rules === st.rules ? "true" : "false");
    });
    document.querySelectorAll("#win-kind button").forEach(() => {});
    $("discarder").closest("label").hidden = currentWin() !== "discard";
    if (data.table) $("t_discarder").closest("label").hidden = currentWin() !== "discard";
  }
  function currentWin() {
    const on = document.querySelector('#win-kind [aria-checked="true"]');
    return on ? on.dataset.win : "discard";
  }

  function handObject() {
    return {
      rules: st.rules,
      hand: st.hand.slice(),
      melds: st.melds.map((m) => ({ kind: m.kind, tiles: m.tiles.slice(), concealed: m.concealed })),
      win_tile: st.win,
      flowers: st.flowers.slice(),
      context: readContext(),
      options: readOptions(),
    };
  }

  let seq = 0, timer = null;
  st.last = null;
  function changed() {
    renderHand();
    applyRules();
    const status = $("status");
    status.classList.remove("warn");
    $("result").hidden = true;
    $("calc").classList.remove("done");
    $("waits").hidden = true;
    $("total").textContent = "";
    st.last = null;
    if (data.table) $("btn-record").disabled = true;
    if (held() + (st.win ? 1 : 0) === 0) { status.textContent = M.start; return; }
    if (held() < need()) { status.textContent = ""; return; }  // the count says how many
    if (!st.win) { status.textContent = M.need_win; showWaits(); return; }
    status.textContent = M.scoring;
    clearTimeout(timer);
    timer = setTimeout(score, 120);
  }

  // a full hand without its winning tile: what it waits for and what each wait is worth
  let waitSeq = 0;
  async function showWaits() {
    const mine = ++waitSeq;
    const obj = handObject();
    delete obj.win_tile;
    let res;
    try {
      const r = await fetch("/api/waits", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(obj),
      });
      res = await r.json();
      if (!r.ok) { if (mine === waitSeq) flash(res.error || M.network); return; }
    } catch (e) { if (mine === waitSeq) flash(M.network); return; }
    if (mine !== waitSeq || st.win || held() !== need()) return;
    const list = $("wait-list");
    list.textContent = "";
    const value = (r) => (r && r.valid ? r.total + " " + unitName(r.unit) : "—");
    for (const w of res.waits) {
      const li = document.createElement("li");
      li.dataset.tile = w.tile;
      const t = document.createElement("span"); t.className = "wtile"; t.innerHTML = svgOf(w.tile);
      const txt = document.createElement("span"); txt.className = "wtext";
      txt.textContent = tileName(w.tile) + " · " + fmt(M.unseen, { n: w.unseen }) + " · " +
        M.by_discard + " " + value(w.discard) + " · " + M.by_self_draw + " " + value(w.self_draw);
      li.append(t, txt);
      list.appendChild(li);
    }
    if (!res.waits.length) { const li = document.createElement("li"); li.className = "muted"; li.textContent = M.no_waits; list.appendChild(li); }
    $("waits").hidden = false;
  }

  async function score() {
    const mine = ++seq;
    const obj = handObject();
    let res;
    try {
      const r = await fetch("/api/score", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(obj),
      });
      res = await r.json();
    } catch (e) {
      if (mine === seq) flash(M.network);
      return;
    }
    if (mine !== seq) return;
    showResult(obj, res);
  }

  // "123m" → 1m 2m 3m, "EEE" → E E E, "1h" → 1h; null when not tile notation
  function parseSet(text) {
    const out = [];
    let digits = "";
    for (const ch of text.replace(/[\[\]()]/g, "")) {  // "[CCC]": a concealed set
      if (/[1-9]/.test(ch)) digits += ch;
      else if ("mpsh".includes(ch) && digits) { for (const d of digits) out.push(d + ch); digits = ""; }
      else if ("ESWNCFP".includes(ch) && !digits) out.push(ch);
      else return null;
    }
    return digits || !out.length || out.some((t) => !ORDER.includes(t)) ? null : out;
  }
  function patternName(p) {
    return (p.names && p.names[lang]) || p.name;
  }
  function showResult(obj, res) {
    const status = $("status");
    if (res.error && res.valid !== true) {
      flash(res.error);
      return;
    }
    const unit = unitName(res.unit);
    $("total").textContent = res.total + " " + unit + (res.limit ? " · " + M.limit : "");
    $("total").className = "total " + (res.winning ? "ok" : "low");
    status.textContent = res.winning ? M.winning : M.not_winning;
    const list = $("patterns");
    list.textContent = "";
    for (const p of res.patterns) {
      const li = document.createElement("li");
      const head = document.createElement("div");
      head.className = "phead";
      const name = document.createElement("span");
      name.className = "pname"; name.textContent = patternName(p);
      const val = document.createElement("span");
      val.className = "pval";
      val.textContent = (p.count > 1 ? p.value + " × " + p.count : String(p.value));
      head.append(name, val);
      li.appendChild(head);
      if (lang !== "en" && patternName(p) !== p.name) {
        const en = document.createElement("div");
        en.className = "pen"; en.textContent = p.name; li.appendChild(en);
      }
      if (p.uses && p.uses.length) {
        const u = document.createElement("div");
        u.className = "uses";
        for (const set of p.uses) {
          const tiles = parseSet(set);
          const g = document.createElement("span");
          g.className = "set";
          g.title = set;
          if (tiles) g.innerHTML = tiles.map((t) => svgOf(t)).join("");
          else g.textContent = set;
          u.appendChild(g);
        }
        li.appendChild(u);
      }
      list.appendChild(li);
    }
    const pay = $("payments");
    pay.textContent = "";
    for (const p of res.payments || []) {
      const li = document.createElement("li");
      li.textContent = fmt(M.pays_sentence, { payer: M.winds[p.from], payee: M.winds[p.to], amount: p.amount });
      pay.appendChild(li);
    }
    if (!(res.payments || []).length) {
      const li = document.createElement("li"); li.textContent = M.no_payments; pay.appendChild(li);
    }
    $("result").hidden = false;
    $("calc").classList.add("done");  // the palette steps aside: total, patterns, payments on one screen
    st.last = { hand: obj, result: res };
    if (data.table) {
      const problem = seatsProblem();
      $("btn-record").disabled = !res.winning || problem !== null;
      if (res.winning && problem) status.textContent = problem;
    }
  }

  function setMode(m) {
    st.mode = m;
    document.querySelectorAll("#modes button").forEach((b) => {
      b.setAttribute("aria-checked", b.dataset.mode === m ? "true" : "false");
    });
  }

  // wiring
  $("palette").addEventListener("click", (e) => {
    const b = e.target.closest(".pt");
    if (b) tap(b.dataset.tile);
  });
  $("modes").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (b) setMode(b.dataset.mode);
  });
  $("rules-picker").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (!b || b.disabled) return;
    st.rules = b.dataset.rules;
    const url = new URL(location.href);
    url.searchParams.set("rules", st.rules);
    history.replaceState(null, "", url);
    changed();
  });
  $("win-kind").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    document.querySelectorAll("#win-kind button").forEach((x) => x.setAttribute("aria-checked", x === b ? "true" : "false"));
    changed();
  });
  root.addEventListener("change", (e) => {
    if (e.target.matches("select, input")) changed();
  });
  $("btn-undo").addEventListener("click", () => {
    const prev = st.history.pop();
    if (!prev) return;
    Object.assign(st, JSON.parse(prev));
    changed();
  });
  $("btn-clear").addEventListener("click", () => {
    snapshot();
    st.hand = []; st.melds = []; st.win = null; st.flowers = []; st.photo = [];
    $("photo-note").hidden = true;
    changed();
  });
  if (data.table) {
    const code = data.table.code;
    let mine = {};
    try { mine = JSON.parse(localStorage.getItem("hefen.table." + code) || "{}"); } catch (e) { mine = {}; }
    if (mine.seat !== undefined) $("t_winner").value = String(mine.seat);
    $("btn-record").addEventListener("click", async () => {
      if (!st.last) return;
      const problem = seatsProblem();
      if (problem) { flash(problem); return; }
      const s = tableSeats();
      const token = (mine.token !== undefined && [s.winner, s.discarder].includes(mine.seat)) ? mine.token : (mine.host || mine.token);
      const r = await fetch("/api/tables/" + code + "/hands", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: "Bearer " + (token || "") },
        body: JSON.stringify({ winner: s.winner, discarder: s.discarder, hand: st.last.hand }),
      });
      const res = await r.json().catch(() => ({}));
      if (!r.ok) { flash(res.error || r.statusText); return; }
      location.href = "/t/" + code;
    });
  }
  window.hefenCalc = { state: st, handObject: handObject, setContext: (ctx) => {
    for (const k of ["seat_wind", "round_wind", "dealer", "discarder"]) if (k in ctx) $(k).value = ctx[k];
    changed();
  } };
  document.dispatchEvent(new CustomEvent("hefen:calc-ready"));
  changed();
})();
