// The language menu changes the page as soon as a language is picked (a script file: the CSP allows no inline handlers).
"use strict";
(function () {
  const menu = document.getElementById("lang");
  if (menu) menu.addEventListener("change", () => menu.form.submit());
})();
