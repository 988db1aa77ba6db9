// New-match form: offer only the player counts the chosen variant allows, and one opponent per other seat.
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

  form.addEventListener("change", update);
  if (spec) spec.addEventListener("input", update);
  update();
})();
