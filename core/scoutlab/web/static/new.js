// New-match form: offer only the player counts the chosen variant allows, and one opponent per other seat;
// a seed typed in the practice box makes it a practice match.
"use strict";
(function () {
  const form = document.querySelector("form.new-match");
  if (!form) return;
  const players = form.querySelector("#players");
  const spec = form.querySelector("#spec_text");

  function allowed() {
    const chosen = form.querySelector("input[name=variant]:checked");
    if (!chosen || (spec && spec.value.trim())) return [2, 3, 4, 5];  // a pasted spec is checked by the server
    return chosen.dataset.players.split(",").map(Number);
  }

  function update() {
    const counts = allowed();
    for (const option of players.options) {
      const n = Number(option.value);
      option.hidden = option.disabled = n !== 0 && !counts.includes(n);
    }
    if (players.selectedOptions[0].disabled) players.value = "0";
    const n = Number(players.value) || counts[0];
    for (const row of form.querySelectorAll(".pick[data-opponent]")) {
      const show = Number(row.dataset.opponent) < n;
      row.hidden = !show;
      row.querySelector("select").disabled = !show;
    }
  }

  // A seed typed in the practice box asks for a practice match; an empty box, a secret deal.
  const seed = form.querySelector("#seed"), practice = form.querySelector("#practice-on");
  function markPractice() { practice.disabled = !seed.value.trim(); }

  form.addEventListener("change", update);
  if (spec) spec.addEventListener("input", update);
  seed.addEventListener("input", markPractice);
  // Opened at the foot of the form, its field would sit under the sticky Start bar: brought into view.
  const box = form.querySelector(".practice-deal");
  box.addEventListener("toggle", () => { if (box.open) box.scrollIntoView({block: "nearest"}); });
  form.addEventListener("submit", markPractice);
  update();
  markPractice();
})();
