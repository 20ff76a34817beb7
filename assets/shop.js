// Small progressive enhancements (and the sign-in ticket's trade, below): the home header turns solid after 20 px of scroll, and
// sections marked .reveal fade in when they come into view (threshold 0.1, 50 px margin).
(function () {
  var SCROLL_SOLID_PX = 20;
  function onScroll() {
    document.documentElement.toggleAttribute("data-scrolled", window.scrollY > SCROLL_SOLID_PX);
  }
  window.addEventListener("scroll", onScroll, { passive: true });
  onScroll();

  // A new page inside the app starts at the top (the router keeps the old scroll position).
  var lastPath = window.location.pathname;
  function scrollTopOnNewPage() {
    if (window.location.pathname !== lastPath) {
      lastPath = window.location.pathname;
      window.scrollTo(0, 0);
    }
  }
  new MutationObserver(scrollTopOnNewPage).observe(document.documentElement, { childList: true, subtree: true });
  window.addEventListener("popstate", scrollTopOnNewPage);

  // Right after a sign-in the page carries a single-use ticket ([data-sign-in-ticket]); trade it
  // for the HttpOnly session cookie exactly once per tab, however often the element is mounted.
  var TRADED_KEY = "shop.tradedSignInTickets";
  function tradedTickets() {
    try {
      return JSON.parse(window.sessionStorage.getItem(TRADED_KEY) || "[]");
    } catch (e) {
      return window.__shopTradedTickets || [];
    }
  }
  function remember(ticket) {
    var traded = tradedTickets().concat([ticket]).slice(-5);
    window.__shopTradedTickets = traded;
    try {
      window.sessionStorage.setItem(TRADED_KEY, JSON.stringify(traded));
    } catch (e) { /* storage refused: the in-memory list still covers this page */ }
  }
  function tradeTickets() {
    document.querySelectorAll("[data-sign-in-ticket]").forEach(function (el) {
      var ticket = el.getAttribute("data-sign-in-ticket");
      if (!ticket || tradedTickets().indexOf(ticket) !== -1) return;
      remember(ticket);
      fetch("/api/auth/session?ticket=" + encodeURIComponent(ticket), {
        credentials: "same-origin",
        cache: "no-store",
        keepalive: true,
      }).catch(function () { /* offline: the tab stays signed in by its state key */ });
    });
  }
  new MutationObserver(tradeTickets).observe(document.documentElement, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ["data-sign-in-ticket"],
  });
  tradeTickets();

  if (!("IntersectionObserver" in window)) {
    return; // sections stay as drawn (shop.css hides them only under .reveal-ready)
  }
  var observer = new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (entry.isIntersecting) {
        entry.target.classList.add("is-visible");
        observer.unobserve(entry.target);
      }
    });
  }, { threshold: 0.1, rootMargin: "50px" });
  function inView(el) {
    var box = el.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight && box.height > 0;
  }
  function watch(root) {
    root.querySelectorAll(".reveal:not(.is-visible)").forEach(function (el) { observer.observe(el); });
  }
  // What the page's first HTML already shows stays shown (no fade out and in): only sections
  // still off screen when this script starts wait for their fade; then the fading is armed.
  document.querySelectorAll(".reveal").forEach(function (el) {
    if (inView(el)) el.classList.add("is-visible");
  });
  document.documentElement.classList.add("reveal-ready");
  // Once per frame at most: the page's first render alone is hundreds of mutations.
  var pending = false;
  new MutationObserver(function () {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; watch(document); onScroll(); });
  }).observe(document.documentElement, { childList: true, subtree: true });
  watch(document);
})();
