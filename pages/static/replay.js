// A game's replay: ← and → (and the page's buttons) step through the actions without reloading
// the page; Home and End jump to the set-up and the last action. Without this script the same
// buttons are links to ?move=N, drawn by the server.
"use strict";
(function () {
  const replay = document.getElementById("replay");
  if (!replay) return;
  const board = document.getElementById("replay-board");
  const caption = document.getElementById("replay-caption");
  const total = Number(replay.dataset.moves);
  let shown = Number(replay.dataset.shown);

  function show(move) {
    shown = Math.max(0, Math.min(total, move));
    board.src = `${replay.dataset.src}${shown}.png?lang=${replay.dataset.lang}`;
    board.dataset.move = String(shown);
    let said = replay.dataset.setup;
    document.querySelectorAll("tr[data-move]").forEach((row) => {
      const current = Number(row.dataset.move) === shown;
      row.classList.toggle("current", current);
      if (current) {
        row.setAttribute("aria-current", "step");
        said = row.dataset.caption;
      } else {
        row.removeAttribute("aria-current");
      }
    });
    caption.textContent = said;
    const url = new URL(window.location.href);
    url.searchParams.set("move", String(shown));
    window.history.replaceState(null, "", url);
  }

  const steps = {
    "replay-first": () => 0, "replay-prev": () => shown - 1,
    "replay-next": () => shown + 1, "replay-last": () => total,
  };
  Object.entries(steps).forEach(([id, target]) => {
    document.getElementById(id).addEventListener("click", (event) => {
      event.preventDefault();
      show(target());
    });
  });
  const keys = { ArrowLeft: -1, ArrowRight: 1 };
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.key in keys) show(shown + keys[event.key]);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(total);
    else return;
    event.preventDefault();
  });
}());
