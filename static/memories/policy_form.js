// The policy form (memories/admin/policy.py): changing any input of a field's group unticks that field's
// "inherit" box, since a ticked box keeps the field inherited (the form would refuse the change otherwise).
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  for (const box of document.querySelectorAll("input[data-inherit]")) {
    const untick = () => {
      box.checked = false;
    };
    for (const input of document.querySelectorAll(`[data-policy-group="${box.dataset.inherit}"]`)) {
      input.addEventListener("input", untick);
      input.addEventListener("change", untick);
    }
  }
});
