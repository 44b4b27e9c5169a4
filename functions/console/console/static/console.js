// The console's few behaviours that need a script; every page works without it.
// - A button with data-confirm asks before its form is sent.
"use strict";

document.addEventListener("submit", (event) => {
  const button = event.submitter;
  const question = button && button.dataset ? button.dataset.confirm : null;
  if (question && !window.confirm(question)) event.preventDefault();
});
