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

  function showError(text) { $("error").textContent = text || ""; }

  function render() {
    const n = table.next;
    $("position").textContent = fmt(M.position, {
      n: n.hand_number, round: M.winds[n.round_wind], dealer: seatName(n.dealer),
    });
    $("unit").textContent = data.ruleset.unit_name;
    const seats = $("seats");
    seats.textContent = "";
    table.seats.forEach((s, i) => {
      const div = document.createElement("div");
      div.className = "seat" + (mine.seat === i ? " me" : "");
      div.dataset.seat = i;
      const bal = table.balances[i];
      const w = document.createElement("span"); w.className = "wind";
      w.textContent = M.winds[windOf(i)] + (n.dealer === i ? " ★" : "") + (mine.seat === i ? " · " + M.you : "");
      const nm = document.createElement("span"); nm.className = "name"; nm.textContent = s.name;
      const b = document.createElement("span");
      b.className = "bal " + (bal > 0 ? "pos" : bal < 0 ? "neg" : "");
      b.dataset.testid = "balance"; b.textContent = signed(bal);
      div.append(w, nm, b);
      if (!s.joined && mine.token === undefined) {
        const btn = document.createElement("button");
        btn.type = "button"; btn.className = "small sit"; btn.textContent = M.sit;
        btn.addEventListener("click", () => join(i));
        div.appendChild(btn);
      } else if (!s.joined) {
        const f = document.createElement("span"); f.className = "muted"; f.textContent = " " + M.free;
        div.appendChild(f);
      }
      seats.appendChild(div);
    });
    $("me").textContent = mine.token !== undefined ? fmt(M.seated, { wind: M.winds[windOf(mine.seat)] })
      : mine.host ? M.host : M.pick;
    $("record").hidden = !(mine.token !== undefined || mine.host);
    for (const id of ["winner", "discarder"]) {
      const sel = $(id);
      const keep = sel.value;
      sel.querySelectorAll("option[data-seat]").forEach((o) => o.remove());
      table.seats.forEach((s, i) => {
        const o = document.createElement("option");
        o.value = String(i); o.dataset.seat = "1";
        o.textContent = s.name + " (" + M.winds[windOf(i)] + ")";
        sel.appendChild(o);
      });
      if (id === "winner" && !sel.dataset.touched && mine.seat !== undefined) sel.value = String(mine.seat);
      else if (keep !== "") sel.value = keep;
    }
    const hist = $("history");
    hist.textContent = "";
    if (!table.hands.length) {
      const li = document.createElement("li"); li.className = "muted"; li.textContent = M.empty; hist.appendChild(li);
    }
    table.hands.slice().reverse().forEach((h) => {
      const li = document.createElement("li");
      li.dataset.hand = h.id;
      let text = "#" + h.number + " · ";
      if (h.kind === "draw") text += M.draw;
      else {
        text += h.discarder === null ? fmt(M.self_drawn, { winner: seatName(h.winner) })
          : fmt(M.won_from, { winner: seatName(h.winner), discarder: seatName(h.discarder) });
        text += " · " + h.value + " " + (h.unit === data.ruleset.unit ? data.ruleset.unit_name : h.unit);
        if (h.source === "scored") text += " (" + M.scored + ")";
      }
      const line = document.createElement("div"); line.textContent = text;
      li.appendChild(line);
      if (h.result && h.result.patterns) {  // a hand scored from its tiles: its patterns
        const pats = document.createElement("div"); pats.className = "patterns-line";
        pats.textContent = h.result.patterns.map((p) =>
          ((p.names && p.names[lang]) || p.name) + " " + (p.count > 1 ? p.value + "×" + p.count : p.value)).join(" · ");
        li.appendChild(pats);
      }
      const ch = document.createElement("div"); ch.className = "muted";
      ch.textContent = h.changes.map((c, i) => seatName(i) + " " + signed(c)).join(" · ");
      li.appendChild(ch);
      hist.appendChild(li);
    });
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
      table = res.table; render();
      return res;
    } catch (err) { showError(err.message); return null; }
  }
  $("btn-value").addEventListener("click", async () => {
    const winner = parseInt($("winner").value, 10);
    const d = $("discarder").value;
    if (d === "") { showError(M.pick_discarder); $("discarder").focus(); return; }
    const discarder = d === "self" ? null : parseInt(d, 10);
    const value = parseInt($("value").value, 10);
    if (isNaN(value)) { $("value").focus(); return; }
    const res = await act("/hands", { winner: winner, discarder: discarder, value: value }, [winner, discarder]);
    if (res) $("value").value = "";
  });
  $("winner").addEventListener("change", () => { $("winner").dataset.touched = "1"; });
  $("btn-draw").addEventListener("click", () => act("/draw", {}, [mine.seat]));
  $("btn-undo").addEventListener("click", () => act("/undo", { hand_id: table.hands.length ? table.hands[table.hands.length - 1].id : null }, [mine.seat]));

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
