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
    const s = fmt(M.hand_of, { n: Math.max(t.hand_number, 1), total: t.hands });
    if (t.status === "between") return s + " · " + M.hand_over;
    if (mySeat() !== null) return s;  // the prompt above the hand says whose move it is
    return g.to_act.length ? s + " · " + fmt(M.waiting_for, { name: name(g.to_act[0]) }) : s;
  }

  // seats in turn order (E, S, W, N); around the table the next one sits on the right
  const windOrder = (g) => g.seats.slice().sort((a, b) => "ESWN".indexOf(a.wind) - "ESWN".indexOf(b.wind)).map((p) => p.seat);
  // where each seat sits: me (or East, for a spectator) at the bottom
  function positions(g) {
    const order = windOrder(g);
    const me = mySeat();
    const k = me !== null ? order.indexOf(me) : 0;
    const out = {};
    ["bottom", "right", "top", "left"].forEach((pos, d) => { out[order[(k + d) % 4]] = pos; });
    return out;
  }
  // who the table waits for: the seat to discard, or me when I may claim
  function active(g) {
    const me = mySeat();
    if (me !== null && g.to_act.includes(me)) return me;
    return g.phase === "discard" ? g.turn : null;
  }

  // a meld as tiles; the claimed tile lies turned, on the side it came from
  // (from the left: first, from opposite: middle, from the right: last)
  const meldEl = (m, claim, seat, g) => {
    if (!m.tiles) return tilesEl(["back", "back", "back", "back"], "meld");
    let codes = m.tiles.slice();
    if (m.concealed) codes = codes.map((c, i) => (i === 0 || i === 3 ? "back" : c));
    const d = el("span", "tiles meld");
    let at = -1;
    if (claim && g) {
      const order = windOrder(g);
      const rel = (order.indexOf(claim.from) - order.indexOf(seat) + 4) % 4;  // 1 right, 2 opposite, 3 left
      const k = claim.tile ? codes.indexOf(claim.tile) : 0;
      if (k >= 0) {
        const t = codes.splice(k, 1)[0];
        at = rel === 3 ? 0 : rel === 2 ? 1 : codes.length;
        codes.splice(at, 0, t);
      }
    }
    codes.forEach((c, i) => {
      const t = tileEl(c, i === at ? "took" : "");
      if (i === at) t.title = name(claim.from);
      d.appendChild(t);
    });
    return d;
  };

  function seatBox(box, i, g, pos) {
    const p = g.seats[i];
    const t = state.table;
    box.textContent = "";
    box.dataset.seat = i;
    box.classList.toggle("turn", active(g) === i);
    box.classList.toggle("me", mySeat() === i);
    const head = el("div", "s-head");
    head.appendChild(el("span", "s-wind" + (g.dealer === i ? " dealer" : ""), M.winds[p.wind]));
    if (g.dealer === i) head.lastChild.title = M.dealer;
    const nm = el("span", "s-name", name(i));
    nm.title = name(i);
    head.appendChild(nm);
    if (t.bots[i]) head.appendChild(el("span", "s-tag", M.bot));
    if (mySeat() === i) head.appendChild(el("span", "s-tag you", M.you));
    const b = t.balances[i];
    const pts = el("span", "s-pts bal " + (b > 0 ? "pos" : b < 0 ? "neg" : ""), signed(b));
    pts.title = M.points;
    pts.dataset.seat = i;
    head.appendChild(pts);
    box.appendChild(head);
    const info = el("div", "s-info");
    if (mySeat() !== i) {  // a count only: the page never holds another seat's tiles
      const hid = el("span", "s-hidden");
      hid.title = M.hidden_tiles;
      hid.appendChild(tileEl("back"));
      hid.appendChild(el("span", "", "×" + p.concealed_count));
      hid.dataset.testid = "count";
      info.appendChild(hid);
    }
    if (p.declared_ready) info.appendChild(el("span", "flag", M.ready));
    if (p.flowers.length) info.appendChild(tilesEl(p.flowers, "flowers"));
    if (info.childNodes.length) box.appendChild(info);
    if (p.melds.length && mySeat() !== i) {
      const ms = el("div", "melds");
      p.melds.forEach((m, k) => ms.appendChild(meldEl(m, (p.claims || [])[k], i, g)));
      box.appendChild(ms);
    }
    const river = el("div", "river");
    river.dataset.testid = "river";
    p.discards.forEach((d, k) => {
      const last = g.last_discard && g.last_discard.seat === i && k === p.discards.length - 1 && !d.claimed &&
        g.phase !== "end";
      const tl = tileEl(d.tile, (d.claimed ? "claimed" : "") + (last ? " last" : ""));
      if (last) tl.title = M.last_discard;
      river.appendChild(tl);
    });
    box.appendChild(river);
  }

  function renderBoard() {
    const g = state.game;
    const board = $("board");
    board.hidden = !g;
    if (!g) return;
    const pos = positions(g);
    Object.keys(pos).forEach((i) => seatBox(board.querySelector('[data-pos="' + pos[i] + '"]'), Number(i), g, pos[i]));
    $("round-wind").textContent = M.winds[g.round_wind] || g.round_wind;
    $("wall").textContent = fmt(M.wall, { n: g.wall_remaining });
    const turn = $("turn"); turn.textContent = "";
    const a = active(g);
    if (a !== null && g.phase !== "end") {
      const arrow = { bottom: "▼", right: "▶", top: "▲", left: "◀" }[pos[a]];
      turn.appendChild(el("span", "arrow", arrow));
      turn.appendChild(el("span", "", mySeat() === a ? M.you : name(a)));
    }
    board.dataset.turn = a === null ? "" : pos[a];
  }

  function renderMine() {
    const g = state.game;
    const me = mySeat();
    const sec = $("mine");
    sec.hidden = !g || me === null;
    if (sec.hidden) return;
    const p = g.seats[me];
    const mineTurn = g.to_act.includes(me) && g.phase !== "end";
    sec.classList.toggle("turn", mineTurn);
    const prompt = $("prompt");
    prompt.textContent = mineTurn ? (g.phase === "discard" ? M.your_turn : M.your_call_long)
      : g.phase === "end" ? M.hand_over : g.to_act.length ? fmt(M.waiting_for, { name: name(g.to_act[0]) }) : "";
    const ms = $("my-melds"); ms.textContent = "";
    p.melds.forEach((m, k) => ms.appendChild(meldEl(m, (p.claims || [])[k], me, g)));
    const legal = g.legal_actions || [];
    const discards = new Set(legal.filter((a) => a.kind === "discard").map((a) => a.tile));
    const hand = $("my-hand"); hand.textContent = "";
    const tiles = (p.concealed || []).slice();
    if (g.drawn && tiles.indexOf(g.drawn) >= 0) tiles.splice(tiles.indexOf(g.drawn), 1);
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
    hand.classList.toggle("many", hand.childNodes.length > 16);  // Taiwan's 17: two rows of nine
    const calls = $("calls"); calls.textContent = "";
    const claimed = g.last_discard ? g.last_discard.tile : null;
    legal.filter((a) => a.kind !== "discard").forEach((a) => {
      const b = el("button", a.kind === "win" ? "primary" : a.kind === "pass" ? "pass" : "call");
      b.type = "button";
      b.dataset.kind = a.kind;
      if (a.tile) b.dataset.tile = a.tile;
      b.appendChild(el("span", "k", M.kinds[a.kind] || a.kind));
      let codes = [];
      if (a.kind === "chow" && a.tile) {
        const n = Number(a.tile[0]);
        codes = [0, 1, 2].map((d) => String(n + d) + a.tile.slice(1));
      } else if (a.kind === "pung" && a.tile) codes = [a.tile, a.tile, a.tile];
      else if (a.kind === "kong" && a.tile) codes = [a.tile, a.tile, a.tile, a.tile];
      else if (a.kind === "win") {  // the drawn tile, or the discard (a robbed kong's tile is not in the view)
        codes = [g.phase === "discard" ? g.drawn : g.phase === "respond" ? claimed : null].filter(Boolean);
      }
      else if (a.tile) codes = [a.tile];
      if (codes.length) {
        const ts = tilesEl(codes, "ct");
        // the discard the call takes, outlined as in its river
        const k = g.phase === "respond" && a.kind !== "ready" ? codes.indexOf(claimed) : -1;
        if (k >= 0) ts.children[k].classList.add("from");
        b.appendChild(ts);
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
    if (!out) {  // the next result opens unfolded
      box.classList.remove("folded");
      $("btn-fold").textContent = M.show_table;
      $("btn-fold").setAttribute("aria-expanded", "true");
      return;
    }
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
        const row = el("div", "melds r-hand");
        row.appendChild(tilesEl(h.hand, "sm"));
        (h.melds || []).forEach((m) => row.appendChild(meldEl(m)));
        if (h.win_tile) row.appendChild(tilesEl([h.win_tile], "sm win"));
        body.appendChild(row);
      }
      body.appendChild(el("h3", "", M.patterns));
      const ul = el("ul", "patterns");
      ul.dataset.testid = "patterns";
      sc.patterns.forEach((pt) => {
        const li = el("li");
        li.appendChild(el("span", "pname", (pt.names && pt.names[lang]) || pt.name));
        li.appendChild(el("span", "pval", (pt.count > 1 ? pt.count + "×" : "") + pt.value));
        ul.appendChild(li);
      });
      body.appendChild(ul);
      body.appendChild(el("div", "total", sc.total + " " + (M.units[sc.unit] || sc.unit)));
    });
    body.appendChild(el("h3", "", M.payments));
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
    renderBoard();
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
  // the result sheet folds down to its title, to look at the table under it
  $("btn-fold").addEventListener("click", () => {
    const folded = $("result").classList.toggle("folded");
    $("btn-fold").textContent = folded ? M.show_result : M.show_table;
    $("btn-fold").setAttribute("aria-expanded", String(!folded));
  });
  $("btn-start").addEventListener("click", () => send({ type: "start" }));
  render();
  connect();
})();
