// hefen rules reference: filter the patterns as the player types.
"use strict";
(function () {
  const box = document.getElementById("rules-search");
  if (!box) return;
  const items = Array.from(document.querySelectorAll("#rules-list > li"));
  box.addEventListener("input", () => {
    const words = box.value.toLowerCase().trim().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const li of items) {
      const text = li.dataset.search + " " + li.textContent.toLowerCase();
      const hit = words.every((w) => text.includes(w));
      li.hidden = !hit;
      if (hit) shown += 1;
    }
    document.getElementById("rules-none").hidden = shown > 0;
  });
})();
