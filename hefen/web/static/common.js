// Shared by every hefen page: the JSON API call and the table-settings fields
// (templates/_settings_fields.html).
"use strict";
window.hefen = (function () {
  async function api(path, body, token) {
    const headers = { "Content-Type": "application/json" };
    if (token) headers.Authorization = "Bearer " + token;
    // one key per action: a request sent twice (a retry, a double send) is written once
    headers["Idempotency-Key"] = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now());
    const r = await fetch(path, { method: "POST", headers: headers, body: JSON.stringify(body || {}) });
    let data = {};
    try { data = await r.json(); } catch (e) { /* empty */ }
    if (!r.ok) throw new Error(data.error || r.statusText);
    return data;
  }

  // Show only the chosen ruleset's settings fields inside `root`.
  function rulesetFields(root, select) {
    const sync = () => {
      root.querySelectorAll("[data-ruleset]").forEach((el) => { el.hidden = el.dataset.ruleset !== select.value; });
    };
    select.addEventListener("change", sync);
    sync();
  }

  // The settings of `ruleset` as typed values: a checkbox is true or false, a
  // number field a whole number, a choice's value JSON text (13, "limit", null).
  function readOptions(root, ruleset) {
    const out = {};
    root.querySelectorAll("[data-ruleset]").forEach((block) => {
      if (block.dataset.ruleset !== ruleset) return;
      block.querySelectorAll("[data-option]").forEach((el) => {
        const k = el.dataset.kind;
        let v;
        if (k === "bool") v = el.checked;
        else if (k === "int") v = el.value.trim() === "" ? NaN : Number(el.value);
        else v = JSON.parse(el.value);
        if (!(typeof v === "number" && isNaN(v))) out[el.dataset.option] = v;
      });
    });
    return out;
  }

  return { api: api, rulesetFields: rulesetFields, readOptions: readOptions };
})();
