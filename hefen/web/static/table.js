// hefen tables: open a table, join a seat, record hands, live updates over WebSocket.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const KEY = (code) => "hefen.table." + code;
  const load = (code) => { try { return JSON.parse(localStorage.getItem(KEY(code)) || "{}"); } catch (e) { return {}; } };
  const save = (code, v) => localStorage.setItem(KEY(code), JSON.stringify(v));
  const fmt = (s, vars) => s.replace(/\{(\w+)\}/g, (_, k) => String(vars[k]));

  const api = hefen.api;

  // ------------------------------------------------------------ new table
  const form = $("new-table");
  if (form) {
    hefen.rulesetFields(form, $("ruleset"));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const ruleset = $("ruleset").value;
      const names = [0, 1, 2, 3].map((i) => form.elements["name" + i].value.trim() || null);
      const options = hefen.readOptions(form, ruleset);
      try {
        const res = await api("/api/tables", {
          ruleset: ruleset, names: names, options: options,
          dealer_keeps_on_draw: $("dealer_keeps").checked,
        });
        save(res.code, { host: res.host_token });
        location.href = "/t/" + res.code;
      } catch (err) { $("error").textContent = err.message; }
    });
    return;
  }

  // ------------------------------------------------------------ table page
  const root = $("table");
  if (!root) return;
  const data = JSON.parse($("table-data").textContent);
  const M = data.msg;
  const code = root.dataset.code;
  const lang = root.dataset.lang;
  let table = data.table;
  let mine = load(code);

  const seatName = (i) => table.seats[i].name;
  const windOf = (i) => table.next.seat_winds[i];
  const tokenFor = (seats) => {
    if (mine.token !== undefined && seats.includes(mine.seat)) return mine.token;
    return mine.host || mine.token;
  };
  const signed = (v) => (v > 0 ? "+" + v : String(v).replace("-", "−"));
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const unitName = (u) => (u === data.ruleset.unit ? data.ruleset.unit_name : u);
  const who = (actor) => (actor === "host" ? M.host_word
    : actor.startsWith("seat:") ? seatName(parseInt(actor.slice(5), 10)) : actor);
  let winner = null;      // the seat tapped as winner
  let discarder = null;   // a seat, "self", or null (not chosen yet)
  let pending = null;     // the action waiting for its confirmation
  let undone = null;      // the hand last undone here, for the undo of the undo
  const opened = new Set();  // history entries open

  function showError(text) { $("error").textContent = text || ""; }

  function pickButtons(box, choices, current, onPick) {
    box.textContent = "";
    for (const [value, label] of choices) {
      const b = el("button", "pick", label);
      b.type = "button"; b.dataset.seat = String(value);
      b.setAttribute("role", "radio");
      b.setAttribute("aria-checked", String(current === value));
      b.addEventListener("click", () => onPick(value));
      box.appendChild(b);
    }
  }
  function seatChoices() { return table.seats.map((s, i) => [i, s.name]); }

  function renderPicks() {
    if (winner === null && mine.seat !== undefined) winner = mine.seat;
    pickButtons($("winner-pick"), seatChoices(), winner, (v) => { winner = v; renderPicks(); });
    pickButtons($("discarder-pick"), seatChoices().concat([["self", M.self_draw]]), discarder,
      (v) => { discarder = v; renderPicks(); });
  }

  function describe(h) {
    if (h.kind === "draw") return M.draw;
    let text = h.discarder === null ? fmt(M.self_drawn, { winner: seatName(h.winner) })
      : fmt(M.won_from, { winner: seatName(h.winner), discarder: seatName(h.discarder) });
    return text + " · " + h.value + " " + unitName(h.unit);
  }
  const paySentence = (payer, payee, amount) =>
    fmt(M.pays, { payer: seatName(payer), payee: seatName(payee), amount: amount });

  function renderSeats() {
    const n = table.next;
    const seats = $("seats");
    seats.textContent = "";
    table.seats.forEach((s, i) => {
      const div = el("div", "seat" + (mine.seat === i ? " me" : ""));
      div.dataset.seat = i;
      const bal = table.balances[i];
      const w = el("span", "wind", M.winds[windOf(i)] + (n.dealer === i ? " ★" : "") + (mine.seat === i ? " · " + M.you : ""));
      const nm = el("span", "name", s.name);
      const b = el("span", "bal " + (bal > 0 ? "pos" : bal < 0 ? "neg" : ""), signed(bal));
      b.dataset.testid = "balance";
      div.append(w, nm, b);
      const tools = el("div", "seat-tools");
      if (!s.joined && mine.token === undefined) {
        const btn = el("button", "small sit", M.sit);
        btn.type = "button";
        btn.addEventListener("click", () => join(i));
        tools.appendChild(btn);
      } else if (!s.joined) {
        tools.appendChild(el("span", "muted", M.free));
      }
      if (s.joined && mine.host) {
        const fr = el("button", "small free", M.free_seat);
        fr.type = "button";
        fr.addEventListener("click", () => act("/release", { seat: i }, []));
        tools.appendChild(fr);
      }
      if (mine.host || mine.seat === i) {
        const rn = el("button", "small rename", M.rename);
        rn.type = "button";
        rn.addEventListener("click", () => rename(i));
        tools.appendChild(rn);
      }
      if (tools.childNodes.length) div.appendChild(tools);
      seats.appendChild(div);
    });
    const full = table.seats.every((s) => s.joined);
    $("me").textContent = mine.token !== undefined ? fmt(M.seated, { wind: M.winds[windOf(mine.seat)] })
      : mine.host ? M.host : full ? M.seat_taken : M.pick;
  }

  function correctionForm(h, box) {
    box.textContent = "";
    let w = h.winner, d = h.kind === "draw" ? null : (h.discarder === null ? "self" : h.discarder);
    const form = el("div", "correct-form");
    const wp = el("div", "picks"), dp = el("div", "picks");
    const val = el("input");
    val.type = "number"; val.step = "1"; val.inputMode = "numeric"; val.className = "c-value";
    val.value = h.value === null ? "" : String(h.value);
    const draw = () => {
      pickButtons(wp, seatChoices(), w, (v) => { w = v; draw(); });
      pickButtons(dp, seatChoices().concat([["self", M.self_draw]]), d, (v) => { d = v; draw(); });
    };
    draw();
    const save = el("button", "primary c-save", M.save); save.type = "button";
    const asDraw = el("button", "c-draw", M.as_draw); asDraw.type = "button";
    const cancel = el("button", "c-cancel", M.cancel); cancel.type = "button";
    const err = el("p", "error"); err.setAttribute("role", "alert");
    const send = async (body) => {
      err.textContent = "";
      try {
        const res = await api("/api/tables/" + code + "/hands/" + h.id + "/correct", body, tokenFor([]));
        table = res.table; render();
      } catch (e) { err.textContent = e.message; }
    };
    save.addEventListener("click", () => {
      if (w === null || w === undefined) { err.textContent = M.pick_discarder; return; }
      if (d === null) { err.textContent = M.pick_discarder; return; }
      const v = checkValue(val.value);
      if (typeof v === "string") { err.textContent = v; return; }
      const body = { winner: w, discarder: d === "self" ? null : d };
      if (h.source === "scored" && v === h.value && h.hand) body.hand = h.hand; else body.value = v;
      send(body);
    });
    asDraw.addEventListener("click", () => send({ draw: true }));
    cancel.addEventListener("click", () => { box.textContent = ""; });
    const lw = el("div", "pick-label", $("winner-pick").getAttribute("aria-label"));
    const ld = el("div", "pick-label", $("discarder-pick").getAttribute("aria-label"));
    const lab = el("label", "", $("unit").textContent);
    lab.appendChild(val);
    const btns = el("div", "buttons"); btns.append(save, asDraw, cancel);
    form.append(lw, wp, ld, dp, lab, btns, err);
    box.appendChild(form);
  }

  function handDetails(h) {
    const li = el("li");
    li.dataset.hand = h.id;
    const det = el("details");
    if (opened.has(h.id)) det.open = true;
    det.addEventListener("toggle", () => { if (det.open) opened.add(h.id); else opened.delete(h.id); });
    const sum = el("summary");
    let text = "#" + h.number + " · " + describe(h);
    if (h.source === "scored") text += " (" + M.scored + ")";
    sum.appendChild(el("div", "", text));
    if (h.result && h.result.patterns) {  // a hand scored from its tiles: its patterns
      sum.appendChild(el("div", "patterns-line", h.result.patterns.map((p) =>
        ((p.names && p.names[lang]) || p.name) + " " + (p.count > 1 ? p.value + "×" + p.count : p.value)).join(" · ")));
    }
    sum.appendChild(el("div", "muted", h.changes.map((c, i) => seatName(i) + " " + signed(c)).join(" · ")));
    det.appendChild(sum);
    const body = el("div", "hand-body");
    if (h.hand) {
      const img = el("img", "hand-tiles");
      img.loading = "lazy"; img.alt = fmt(M.tiles_of, { n: h.number });
      img.src = "/api/tables/" + code + "/hands/" + h.id + "/tiles.svg";
      body.appendChild(img);
    }
    if (h.result && h.result.patterns && h.result.patterns.length) {
      body.appendChild(el("h3", "", M.patterns));
      const ul = el("ul", "hand-patterns");
      for (const p of h.result.patterns) {
        ul.appendChild(el("li", "", ((p.names && p.names[lang]) || p.name) + " · " +
          (p.count > 1 ? p.value + "×" + p.count : p.value)));
      }
      body.appendChild(ul);
    } else if (h.kind === "win") body.appendChild(el("p", "muted", M.entered));
    if (h.payments.length) {
      body.appendChild(el("h3", "", M.payments));
      const ul = el("ul", "hand-payments");
      for (const p of h.payments) ul.appendChild(el("li", "", paySentence(p.from, p.to, p.amount)));
      body.appendChild(ul);
    }
    let audit = fmt(M.recorded_by, { who: who(h.recorded_by) }) + " · " + h.recorded_at.slice(0, 16).replace("T", " ");
    if (h.corrections.length) audit += " · " + fmt(M.corrected, { n: h.corrections.length });
    body.appendChild(el("p", "muted audit", audit));
    if (mine.token !== undefined || mine.host) {
      const box = el("div", "correct-box");
      const btn = el("button", "small btn-correct", M.correct); btn.type = "button";
      btn.addEventListener("click", () => correctionForm(h, box));
      body.append(btn, box);
    }
    det.appendChild(body);
    li.appendChild(det);
    return li;
  }

  function render() {
    const n = table.next;
    $("position").textContent = fmt(M.position, {
      n: n.hand_number, round: M.winds[n.round_wind], dealer: seatName(n.dealer),
    });
    $("unit").textContent = data.ruleset.unit_name;
    renderSeats();
    $("record").hidden = !(mine.token !== undefined || mine.host);
    renderPicks();
    const hist = $("history");
    hist.textContent = "";
    if (!table.hands.length) hist.appendChild(el("li", "muted", M.empty));
    table.hands.slice().reverse().forEach((h) => hist.appendChild(handDetails(h)));
    if (!$("settlement").hidden) settle();
  }

  async function join(seat) {
    try {
      const res = await api("/api/tables/" + code + "/join", { seat: seat });
      mine = Object.assign(load(code), { seat: res.seat, token: res.token });
      save(code, mine);
      table = res.table; render();
    } catch (err) { showError(err.message); }
  }
  async function act(path, body, seats) {
    showError("");
    try {
      // the table version this phone saw: a change made meanwhile by another phone wins
      const res = await api("/api/tables/" + code + path, Object.assign({ version: table.version }, body), tokenFor(seats));
      table = res.table || res; render();
      return res;
    } catch (err) { showError(err.message); return null; }
  }
  async function rename(seat) {
    const name = window.prompt(M.name_prompt, seatName(seat));
    if (name === null || !name.trim()) return;
    await act("/rename", { seat: seat, name: name.trim() }, [seat]);
  }
  // The value typed, as a whole number, or the sentence saying what is wrong.
  function checkValue(text) {
    const t = String(text).trim();
    if (t === "") return M.no_value;
    if (!/^-?\d+$/.test(t)) return M.whole;
    return parseInt(t, 10);
  }
  function confirmThen(text, run) {
    pending = run;
    $("confirm-text").textContent = text;
    $("confirm").hidden = false;
    $("confirm-yes").focus();
  }
  $("confirm-yes").addEventListener("click", async () => {
    const run = pending; pending = null; $("confirm").hidden = true;
    if (run) await run();
  });
  $("confirm-no").addEventListener("click", () => { pending = null; $("confirm").hidden = true; });

  $("btn-value").addEventListener("click", async () => {
    if (winner === null) { showError(M.pick_discarder); return; }
    if (discarder === null) { showError(M.pick_discarder); return; }
    const value = checkValue($("value").value);
    if (typeof value === "string") { showError(value); $("value").focus(); return; }
    const d = discarder === "self" ? null : discarder;
    const res = await act("/hands", { winner: winner, discarder: d, value: value }, [winner, d]);
    if (res) { $("value").value = ""; discarder = null; undone = null; $("restore").hidden = true; renderPicks(); }
  });
  $("btn-draw").addEventListener("click", () => confirmThen(
    fmt(M.confirm_draw, { n: table.next.hand_number }),
    async () => { if (await act("/draw", {}, [mine.seat])) { undone = null; $("restore").hidden = true; } }));
  $("btn-undo").addEventListener("click", () => {
    const last = table.hands[table.hands.length - 1];
    if (!last) { act("/undo", {}, [mine.seat]); return; }  // the table's own sentence
    confirmThen(fmt(M.confirm_undo, { n: last.number, what: describe(last) }), async () => {
      const res = await act("/undo", { hand_id: last.id }, [mine.seat]);
      if (res) {
        undone = res.hand;
        $("restore-text").textContent = fmt(M.undone, { n: last.number }) + " " + describe(last);
        $("restore").hidden = false;
      }
    });
  });
  // the undo of the undo: the undone hand is recorded again, as it was
  $("btn-restore").addEventListener("click", async () => {
    const h = undone;
    if (!h) return;
    let res;
    if (h.kind === "draw") res = await act("/draw", {}, [mine.seat]);
    else {
      const body = { winner: h.winner, discarder: h.discarder };
      if (h.source === "scored" && h.hand) body.hand = h.hand; else body.value = h.value;
      res = await act("/hands", body, [h.winner, h.discarder]);
    }
    if (res) { undone = null; $("restore").hidden = true; }
  });

  async function settle() {
    try {
      const r = await fetch("/api/tables/" + code + "/settlement");
      const s = await r.json();
      if (!r.ok) throw new Error(s.error || r.statusText);
      const bl = $("final-balances"); bl.textContent = "";
      s.balances.forEach((b, i) => {
        const li = el("li", "", seatName(i) + " ");
        li.appendChild(el("strong", b > 0 ? "pos" : b < 0 ? "neg" : "", signed(b)));
        bl.appendChild(li);
      });
      const tl = $("transfers"); tl.textContent = "";
      if (!s.transfers.length) tl.appendChild(el("li", "muted", M.settled));
      for (const t of s.transfers) tl.appendChild(el("li", "", paySentence(t.payer, t.payee, t.amount)));
      $("settlement").hidden = false;
    } catch (err) { showError(err.message); }
  }
  $("btn-settle").addEventListener("click", settle);

  // live updates
  let delay = 500;
  function connect() {
    const proto = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(proto + location.host + "/ws/tables/" + code);
    ws.onopen = () => { $("live").textContent = "● " + M.live; delay = 500; };
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === "table" && m.table.version >= table.version) { table = m.table; render(); }
    };
    ws.onclose = () => {
      $("live").textContent = M.offline;
      setTimeout(connect, delay); delay = Math.min(delay * 2, 10000);
    };
  }
  render();
  connect();
  window.hefenTable = { get: () => table, mine: () => mine };
})();
