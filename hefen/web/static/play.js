// hefen online play: open a game table, take a seat, play a hand against bots or people.
// The server sends this phone only what its seat may see (game.view(seat)).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const KEY = (code) => "hefen.play." + code;
  const load = (code) => { try { return JSON.parse(localStorage.getItem(KEY(code)) || "{}"); } catch (e) { return {}; } };
  const save = (code, v) => localStorage.setItem(KEY(code), JSON.stringify(v));
  const fmt = (s, vars) => s.replace(/\{(\w+)\}/g, (_, k) => String(vars[k]));
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  const api = hefen.api;

  // ------------------------------------------------------------ new game
  const form = $("new-game");
  if (form) {
    hefen.rulesetFields(form, $("ruleset"));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const ruleset = $("ruleset").value;
      const bots = [0, 1, 2, 3].map((i) => form.elements["bot" + i].value || null);
      // an empty name is the page's own words: "Strong bot 2", "强机器人 2", "Player 1"
      const names = [0, 1, 2, 3].map((i) => {
        const input = form.elements["name" + i];
        const pick = form.elements["bot" + i];
        return input.value.trim() ||
          (bots[i] ? pick.selectedOptions[0].textContent.trim() + " " + (i + 1) : input.placeholder) || null;
      });
      const seat = form.elements.seat.value === "" ? null : Number(form.elements.seat.value);
      const options = hefen.readOptions(form, ruleset);
      try {
        const res = await api("/api/play", {
          ruleset: ruleset, names: names, bots: bots, seat: seat, options: options,
          hands: Number(form.elements.hands.value) || 4,
          dealer_keeps_on_draw: $("dealer_keeps").checked,
          multiple_winners: $("multiple_winners").checked,
        });
        if (res.token) save(res.code, { seat: res.seat, token: res.token });
        location.href = "/play/" + res.code;
      } catch (err) { $("error").textContent = err.message; }
    });
    return;
  }

  // ------------------------------------------------------------ game page
  const root = $("play");
  if (!root) return;
  const data = JSON.parse($("play-data").textContent);
  const M = data.msg;
  const code = root.dataset.code;
  const lang = document.documentElement.lang || "en";
  let state = data.state;
  let mine = load(code);
  let ws = null;
  let pinger = null;

  const svgs = {};
  $("tiles").content.querySelectorAll("i[data-t]").forEach((i) => { svgs[i.dataset.t] = i.innerHTML; });
  const tileEl = (code, cls) => {
    const s = el("span", "t" + (cls ? " " + cls : ""));
    s.innerHTML = svgs[code] || svgs.back;
    s.dataset.tile = code;
    return s;
  };
  const tilesEl = (codes, cls) => {
    const d = el("span", "tiles " + (cls || ""));
    codes.forEach((c) => d.appendChild(tileEl(c || "back")));
    return d;
  };
  const meldEl = (m) => {
    if (!m.tiles) return tilesEl(["back", "back", "back", "back"], "meld");
    const codes = m.tiles.slice();
    const d = tilesEl(m.concealed ? codes.map((c, i) => (i === 0 || i === 3 ? "back" : c)) : codes, "meld");
    return d;
  };
  const signed = (v) => (v > 0 ? "+" + v : String(v).replace("-", "−"));
  const name = (i) => state.table.names[i];
  const mySeat = () => (mine.token && state.seat !== null && state.seat !== undefined ? state.seat : null);

  function showError(text) { $("error").textContent = text || ""; }

  function send(obj) {
    showError("");
    if (obj.type === "act") obj.key = crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2);  // one per move
    if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj));
    else showError(M.offline);
  }

  function statusText() {
    const t = state.table, g = state.game;
    if (t.status === "waiting" || !g) return M.waiting;
    if (t.status === "finished") return M.over;
    let s = fmt(M.hand_of, { n: Math.max(t.hand_number, 1), total: t.hands }) + " · " + fmt(M.wall, { n: g.wall_remaining });
    if (t.status === "between") return s + " · " + M.hand_over;
    const me = mySeat();
    if (me !== null && g.to_act.includes(me)) s += " · " + (g.phase === "discard" ? M.your_turn : M.your_call);
    else if (g.to_act.length) s += " · " + fmt(M.waiting_for, { name: name(g.to_act[0]) });
    return s;
  }

  function seatHeader(i, g) {
    const p = g ? g.seats[i] : null;
    const h = el("div", "who");
    const wind = p ? M.winds[p.wind] : "";
    h.textContent = name(i) + (wind ? " · " + wind : "") + (g && g.dealer === i ? " ★" : "") +
      (state.table.bots[i] ? " (" + M.bot + ")" : "") + (mySeat() === i ? " · " + M.you : "");
    if (p && p.declared_ready) h.appendChild(el("span", "flag", M.ready));
    return h;
  }

  function renderOthers() {
    const box = $("others");
    box.textContent = "";
    const g = state.game;
    if (!g) return;
    const me = mySeat();
    const order = g.seats.slice().sort((a, b) => "ESWN".indexOf(a.wind) - "ESWN".indexOf(b.wind)).map((p) => p.seat);
    let seats = order;
    if (me !== null) {
      const k = order.indexOf(me);
      seats = [1, 2, 3].map((d) => order[(k + d) % 4]);
    }
    seats.forEach((i) => {
      const p = g.seats[i];
      const card = el("section", "card opp" + (g.to_act.includes(i) ? " turn" : ""));
      card.dataset.seat = i;
      const top = el("div", "row-l");
      top.appendChild(seatHeader(i, g));
      const cnt = el("span", "muted count", fmt(M.tiles, { n: p.concealed_count }));
      cnt.dataset.testid = "count";
      top.appendChild(cnt);
      if (p.flowers.length) top.appendChild(tilesEl(p.flowers, "xs"));
      card.appendChild(top);
      if (p.melds.length) {
        const ms = el("div", "melds");
        p.melds.forEach((m) => ms.appendChild(meldEl(m)));
        card.appendChild(ms);
      }
      const river = el("div", "river");
      p.discards.forEach((d, k) => {
        const last = g.last_discard && g.last_discard.seat === i && k === p.discards.length - 1 && !d.claimed;
        river.appendChild(tileEl(d.tile, (d.claimed ? "claimed" : "") + (last ? " last" : "")));
      });
      card.appendChild(river);
      box.appendChild(card);
    });
  }

  function renderMine() {
    const g = state.game;
    const me = mySeat();
    const sec = $("mine");
    sec.hidden = !g || me === null;
    if (sec.hidden) return;
    const p = g.seats[me];
    sec.classList.toggle("turn", g.to_act.includes(me));
    $("my-label").textContent = "";
    $("my-label").appendChild(seatHeader(me, g));
    const fl = $("my-flowers"); fl.textContent = "";
    if (p.flowers.length) fl.appendChild(tilesEl(p.flowers, "xs"));
    const ms = $("my-melds"); ms.textContent = "";
    p.melds.forEach((m) => ms.appendChild(meldEl(m)));
    // my river
    if (p.discards.length) {
      const river = el("div", "river");
      p.discards.forEach((d) => river.appendChild(tileEl(d.tile, d.claimed ? "claimed" : "")));
      ms.appendChild(river);
    }
    const legal = g.legal_actions || [];
    const discards = new Set(legal.filter((a) => a.kind === "discard").map((a) => a.tile));
    const hand = $("my-hand"); hand.textContent = "";
    const tiles = (p.concealed || []).slice();
    if (g.drawn) tiles.splice(tiles.indexOf(g.drawn), 1);
    const add = (t, cls) => {
      const b = el("button", "ht" + (cls ? " " + cls : ""));
      b.type = "button";
      b.dataset.tile = t;
      b.innerHTML = svgs[t] || t;
      b.setAttribute("aria-label", M.kinds.discard + " " + t);
      if (discards.has(t)) {
        b.classList.add("can");
        b.addEventListener("click", () => send({ type: "act", kind: "discard", tile: t }));
      } else b.disabled = true;
      hand.appendChild(b);
    };
    tiles.forEach((t) => add(t));
    if (g.drawn) add(g.drawn, "drawn");
    const calls = $("calls"); calls.textContent = "";
    legal.filter((a) => a.kind !== "discard").forEach((a) => {
      const b = el("button", a.kind === "win" ? "primary" : a.kind === "pass" ? "" : "call");
      b.type = "button";
      b.dataset.kind = a.kind;
      if (a.tile) b.dataset.tile = a.tile;
      b.appendChild(el("span", "", M.kinds[a.kind] || a.kind));
      if (a.tile) {
        let codes = [a.tile];
        if (a.kind === "chow") {
          const n = Number(a.tile[0]);
          codes = [0, 1, 2].map((d) => String(n + d) + a.tile.slice(1));
        }
        b.appendChild(tilesEl(codes, "xs"));
      }
      b.addEventListener("click", () => send({ type: "act", kind: a.kind, tile: a.tile || null }));
      calls.appendChild(b);
    });
  }

  function renderResult() {
    const g = state.game;
    const box = $("result");
    const out = g && g.outcome;
    box.hidden = !out;
    if (!out) return;
    let title = M.draw;
    if (out.result === "win") {
      title = out.winners.map((w) => (out.discarder === null ? fmt(M.self_drawn, { winner: name(w) })
        : fmt(M.won_from, { winner: name(w), discarder: name(out.discarder) }))).join(" · ");
    }
    $("result-title").textContent = title;
    const body = $("result-body"); body.textContent = "";
    (out.scores || []).forEach((sc, k) => {
      const h = out.hands[k];
      if (h) {
        const row = el("div", "melds");
        row.appendChild(tilesEl(h.hand, "sm"));
        (h.melds || []).forEach((m) => row.appendChild(meldEl(m)));
        if (h.win_tile) row.appendChild(tilesEl([h.win_tile], "sm win"));
        body.appendChild(row);
      }
      const ul = el("ul", "patterns");
      sc.patterns.forEach((pt) => {
        const li = el("li");
        li.appendChild(el("span", "pname", (pt.names && pt.names[lang]) || pt.name));
        li.appendChild(el("span", "pval", (pt.count > 1 ? pt.count + "×" : "") + pt.value));
        ul.appendChild(li);
      });
      body.appendChild(ul);
      body.appendChild(el("div", "total", sc.total + " " + (M.units[sc.unit] || sc.unit)));
    });
    const pays = el("ul", "payments");
    pays.dataset.testid = "payments";
    if (!out.payments.length) pays.appendChild(el("li", "muted", M.no_payments));
    out.payments.forEach((p) => pays.appendChild(el("li", "", fmt(M.pays_sentence, { payer: name(p.from), payee: name(p.to), amount: p.amount }))));
    body.appendChild(pays);
    $("btn-next").hidden = !(state.table.status === "between" && mySeat() !== null);
  }

  function renderTable() {
    const t = state.table;
    const bal = $("balances"); bal.textContent = "";
    t.balances.forEach((b, i) => {
      const d = el("div", "bal-row" + (mySeat() === i ? " me" : ""));
      d.appendChild(el("span", "", name(i)));
      const v = el("span", "bal " + (b > 0 ? "pos" : b < 0 ? "neg" : ""), signed(b));
      v.dataset.seat = i;
      d.appendChild(v);
      bal.appendChild(d);
    });
    const hist = $("history"); hist.textContent = "";
    t.history.slice().reverse().forEach((h) => {
      let text = "#" + h.number + " · ";
      if (h.kind === "draw") text += M.draw;
      else text += (h.discarder === null ? fmt(M.self_drawn, { winner: name(h.winner) })
        : fmt(M.won_from, { winner: name(h.winner), discarder: name(h.discarder) })) + " · " + h.value + " " + (M.units[h.unit] || h.unit);
      hist.appendChild(el("li", "", text));
    });
    // joining
    const join = $("join");
    const free = [0, 1, 2, 3].filter((i) => !t.bots[i] && !t.joined[i]);
    join.hidden = t.status !== "waiting";
    const js = $("join-seats"); js.textContent = "";
    [0, 1, 2, 3].forEach((i) => {
      const d = el("div", "seat" + (mySeat() === i ? " me" : ""));
      d.dataset.seat = i;
      d.appendChild(el("span", "name", name(i) + (t.bots[i] ? " (" + M.bot + ")" : "")));
      if (free.includes(i) && !mine.token) {
        const b = el("button", "small sit", M.sit);
        b.type = "button";
        b.addEventListener("click", () => join(i));
        d.appendChild(b);
      } else if (free.includes(i)) d.appendChild(el("span", "muted", M.free));
      js.appendChild(d);
    });
    $("btn-start").hidden = !(mine.token && t.status === "waiting");
    $("me").textContent = mySeat() !== null && state.game
      ? fmt(M.seated, { wind: M.winds[state.game.seats[mySeat()].wind] }) : (mine.token ? "" : M.watching);
  }

  function render() {
    $("status").textContent = statusText();
    if (state.table.error) showError(state.table.error);
    renderOthers();
    renderMine();
    renderResult();
    renderTable();
  }

  async function join(seat) {
    try {
      const res = await api("/api/play/" + code + "/join", { seat: seat });
      mine = { seat: res.seat, token: res.token };
      save(code, mine);
      state = res.state; render(); connect();
    } catch (err) { showError(err.message); }
  }

  function connect() {
    if (ws) { ws.onclose = null; ws.close(); }
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(proto + "//" + location.host + "/ws/play/" + code);
    ws.onopen = () => {  // the token goes in the first message, never in the URL
      ws.send(JSON.stringify(mine.token ? { type: "auth", token: mine.token } : { type: "watch" }));
      $("live").textContent = "· " + M.live;
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") { state = msg; render(); }
      else if (msg.type === "error") showError(msg.error);
    };
    ws.onclose = (ev) => {
      $("live").textContent = "· " + M.offline;
      if (ev.code === 4403) { mine = {}; save(code, mine); }  // a token of another server
      setTimeout(connect, 1500);
    };
    if (!pinger) pinger = setInterval(() => { if (ws && ws.readyState === 1) ws.send("ping"); }, 25000);
  }

  $("btn-next").addEventListener("click", () => send({ type: "next" }));
  $("btn-start").addEventListener("click", () => send({ type: "start" }));
  render();
  connect();
})();
