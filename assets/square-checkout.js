// Square's Web Payments SDK on /checkout (sandbox and production only; local mode uses test cards).
// The card fields live in Square's iframe; only the single-use token reaches our server, in the
// hidden "source_id" input, just before the checkout form is submitted.
(function () {
  "use strict";
  var card = null;
  var loading = null;

  function container() { return document.getElementById("card-container"); }

  function loadSdk(src) {
    if (window.Square) return Promise.resolve(window.Square);
    if (loading) return loading;
    loading = new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = src;
      script.onload = function () { window.Square ? resolve(window.Square) : reject(new Error("Square.js failed to load properly.")); };
      script.onerror = function () { reject(new Error("Square.js failed to load properly.")); };
      document.head.appendChild(script);
    });
    return loading;
  }

  function attach() {
    var box = container();
    if (!box || box.dataset.attached) return;
    box.dataset.attached = "1";
    loadSdk(box.dataset.sdk)
      .then(function (Square) { return Square.payments(box.dataset.applicationId, box.dataset.locationId).card(); })
      .then(function (c) { card = c; return c.attach("#card-container"); })
      .catch(function (error) { box.textContent = error.message; });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var token = form.querySelector && form.querySelector("#card-token");
    if (!token || !container() || token.value || !card) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    card.tokenize().then(function (result) {
      if (result.status === "OK") {
        token.value = result.token;
        form.requestSubmit();
      } else {
        container().setAttribute("aria-invalid", "true");
      }
    });
  }, true);

  new MutationObserver(attach).observe(document.documentElement, { childList: true, subtree: true });
  attach();
})();
